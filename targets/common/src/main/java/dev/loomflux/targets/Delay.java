package dev.loomflux.targets;

import java.util.Locale;

/**
 * The downstream wait a /gateway, /chain or /mixed request asks for: {@code delay} ms spread by
 * {@code dist} (docs/downstream.md). The stub samples it; the target checks it first, so a bad
 * value is a 400 worded the same on every target rather than a 502 relaying the stub's 400.
 *
 * @param p99 the lognormal's 99th percentile in ms; 0 for the other distributions
 */
public record Delay(int ms, Dist dist, int p99) {
    public enum Dist {
        FIXED, UNIFORM, EXPONENTIAL, LOGNORMAL;

        private final String query = name().toLowerCase(Locale.ROOT);

        static Dist parse(String raw) {
            if (raw == null || raw.isEmpty()) {
                return FIXED;
            }
            for (Dist d : values()) {
                if (d.query.equals(raw)) {
                    return d;
                }
            }
            throw new BadParameterException("parameter 'dist' must be one of fixed, uniform, exponential, lognormal");
        }
    }

    /** Parses raw query values; absent or empty {@code dist} means fixed, as before distributions existed. */
    public static Delay parse(String delay, String dist, String p99) {
        int ms = Param.DELAY.parse(delay);
        Dist d = Dist.parse(dist);
        boolean hasP99 = p99 != null && !p99.isEmpty();
        if (d != Dist.LOGNORMAL) {
            if (hasP99) {
                throw new BadParameterException("parameter 'p99' applies only to dist=lognormal");
            }
            return new Delay(ms, d, 0);
        }
        if (ms == 0) {
            // A median of 0 leaves no lognormal with a positive p99.
            throw new BadParameterException("parameter 'delay' must be an integer in 1.." + Param.DELAY.max() + " for dist=lognormal");
        }
        if (!hasP99) {
            throw new BadParameterException("parameter 'p99' is required for dist=lognormal");
        }
        return new Delay(ms, d, p99(p99, ms));
    }

    private static int p99(String raw, int ms) {
        try {
            int value = Integer.parseInt(raw.trim());
            if (value >= ms && value <= Param.DELAY.max()) {
                return value;
            }
        } catch (NumberFormatException fallThrough) {
            // Same message as out of range.
        }
        throw new BadParameterException("parameter 'p99' must be an integer in " + ms + ".." + Param.DELAY.max());
    }

    /**
     * The chain's calls: depth 0 makes no call and waits in the target itself, as a handler that sleeps
     * (chrisgleissner/loom-webflux-benchmarks' delayCallDepth=0), where only a fixed wait is drawn.
     */
    public int calls(String depth) {
        int n = Param.DEPTH.parse(depth);
        if (n == 0 && dist != Dist.FIXED) {
            throw new BadParameterException("parameter 'dist' needs depth 1 or more: at depth 0 the target waits delay ms itself");
        }
        return n;
    }

    /** The stub's path and query; a fixed delay stays exactly {@code /delay?ms=N}. */
    public String path() {
        String path = "/delay?ms=" + ms;
        if (dist != Dist.FIXED) {
            path += "&dist=" + dist.query;
        }
        if (dist == Dist.LOGNORMAL) {
            path += "&p99=" + p99;
        }
        return path;
    }
}
