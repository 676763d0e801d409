package dev.loomflux.lab.capacity;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a rate step must meet: a latency percentile under a bound, at most a share of errors, and
 * the driver on schedule (otherwise the latencies leave out the requests that could not be sent).
 */
public record Slo(String percentile, double maxMs, double maxErrorPct) {
    private static final Pattern LATENCY = Pattern.compile("(p50|p90|p95|p99|p999)\\s*<\\s*([0-9]+(?:\\.[0-9]+)?)\\s*ms");
    private static final Pattern PERCENT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*%");

    /** {@code p99<50ms} and {@code 0.1%}. */
    public static Slo parse(String latency, String errors) {
        Matcher m = LATENCY.matcher(latency.trim());
        if (!m.matches()) {
            throw new UsageException("--slo " + latency + ": expected PERCENTILE<NUMBERms, e.g. p99<50ms (p50, p90, p95, p99, p999)");
        }
        Matcher e = PERCENT.matcher(errors.trim());
        if (!e.matches() || Double.parseDouble(e.group(1)) > 100) {
            throw new UsageException("--max-errors " + errors + ": expected a percentage such as 0.1%");
        }
        return new Slo(m.group(1), Double.parseDouble(m.group(2)), Double.parseDouble(e.group(1)));
    }

    /** Why a measured step misses the SLO; empty when it meets it. */
    public List<String> misses(Result result) {
        List<String> why = new ArrayList<>();
        if (!result.ok()) {
            why.add("failed: " + result.outcome().error());
            return why;
        }
        Double v = result.load().latencyMs().at(percentile);
        if (v == null || v >= maxMs) {
            why.add(String.format(Locale.ROOT, "%s %s ms >= %s ms", percentile, v, fmt(maxMs)));
        }
        double pct = result.load().requests() == 0 ? 100 : 100.0 * result.load().errors().total() / result.load().requests();
        if (pct > maxErrorPct) {
            why.add(String.format(Locale.ROOT, "errors %.3f%% > %s%%", pct, fmt(maxErrorPct)));
        }
        if (Boolean.TRUE.equals(result.load().behindSchedule())) {
            why.add("driver behind schedule (every in-flight slot busy, or fewer arrivals sent than scheduled)");
        }
        return why;
    }

    /** The percentiles a paired block keeps ({@link BlockRecord.BlockLatency}). */
    private static final List<String> IN_BLOCKS = List.of("p50", "p99");

    /** Throws the flag's one-line error when the paired design's blocks do not keep the SLO's percentile. */
    public void requireInBlocks() {
        if (!IN_BLOCKS.contains(percentile)) {
            throw new UsageException("--slo " + percentile + ": a paired capacity judges each block by its p50 or p99; use one of them, or --design sequential");
        }
    }

    /**
     * One paired block as the SLO judges it ({@link CapacityBootstrap.Observation}): its latency at the percentile over the
     * bound, in logs; +Infinity for too many errors, no response, or arrivals that fell behind while every in-flight slot was
     * busy (the target's doing); NaN when they fell behind with half the slots free: the driver could not offer the rate.
     *
     * @param slots the block's in-flight slots ({@link CapacityPlan#inFlight})
     */
    public double severity(BlockRecord b, int slots) {
        BlockRecord.BlockLoad load = b.load();
        if (load.intended() != null && load.requests() < PhasePlan.ON_SCHEDULE * load.intended()) {
            return load.inFlight() != null && load.inFlight() < slots / 2.0 ? Double.NaN : Double.POSITIVE_INFINITY;
        }
        Double v = percentile.equals("p50") ? b.latency().p50() : b.latency().p99();
        if (v == null || load.requests() == 0 || 100.0 * load.errors() / load.requests() > maxErrorPct) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.log(Math.max(v, 1e-3) / maxMs);
    }

    @Override
    public String toString() {
        return percentile + "<" + fmt(maxMs) + "ms, errors<=" + fmt(maxErrorPct) + "%";
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
