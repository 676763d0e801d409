package dev.loomflux.downstream;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * How long one {@code /delay} request waits: {@code ms} and a distribution around it, chosen per
 * request (docs/downstream.md). Samples are whole milliseconds, capped at {@link #MAX_MS}.
 *
 * @param p99 the lognormal's 99th percentile; 0 for the other distributions
 */
record StubDelay(Distribution dist, int ms, int p99) {
    static final int MAX_MS = 60_000;
    /** The standard normal's 99th percentile: a lognormal's p99 is its median * exp(Z99 * sigma). */
    static final double Z99 = 2.3263;

    enum Distribution {
        FIXED, UNIFORM, EXPONENTIAL, LOGNORMAL;

        final String query = name().toLowerCase(Locale.ROOT);
    }

    /** Reads {@code ms}, {@code dist} and {@code p99} from decoded query parameters; absent or empty means the default. */
    static StubDelay parse(Map<String, List<String>> params) {
        String rawMs = first(params, "ms");
        int ms = rawMs == null ? 0 : integer(rawMs, "ms", 0, MAX_MS);
        Distribution dist = dist(first(params, "dist"));
        String p99 = first(params, "p99");
        if (dist != Distribution.LOGNORMAL) {
            if (p99 != null) {
                throw new IllegalArgumentException("parameter 'p99' applies only to dist=lognormal");
            }
            return new StubDelay(dist, ms, 0);
        }
        if (ms == 0) {
            // A median of 0 leaves no lognormal with a positive p99.
            throw new IllegalArgumentException("parameter 'ms' must be an integer in 1.." + MAX_MS + " for dist=lognormal");
        }
        if (p99 == null) {
            throw new IllegalArgumentException("parameter 'p99' is required for dist=lognormal");
        }
        return new StubDelay(dist, ms, integer(p99, "p99", ms, MAX_MS));
    }

    /** One wait in ms. Called on the event loop with its ThreadLocalRandom: no lock, no shared state. */
    int sample(RandomGenerator random) {
        double drawn = switch (dist) {
            case FIXED -> ms;
            case UNIFORM -> random.nextInt(2 * ms + 1);
            case EXPONENTIAL -> ms * random.nextExponential();
            case LOGNORMAL -> ms * Math.exp(Math.log((double) p99 / ms) / Z99 * random.nextGaussian());
        };
        return (int) Math.min(Math.round(drawn), MAX_MS);
    }

    private static Distribution dist(String raw) {
        if (raw == null) {
            return Distribution.FIXED;
        }
        for (Distribution d : Distribution.values()) {
            if (d.query.equals(raw)) {
                return d;
            }
        }
        throw new IllegalArgumentException("parameter 'dist' must be one of fixed, uniform, exponential, lognormal");
    }

    private static int integer(String raw, String name, int min, int max) {
        try {
            int value = Integer.parseInt(raw);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException fallThrough) {
            // Same message as out of range.
        }
        throw new IllegalArgumentException("parameter '" + name + "' must be an integer in " + min + ".." + max);
    }

    private static String first(Map<String, List<String>> params, String name) {
        List<String> values = params.get(name);
        return values == null || values.get(0).isEmpty() ? null : values.get(0);
    }
}
