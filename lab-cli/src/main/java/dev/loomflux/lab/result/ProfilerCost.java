package dev.loomflux.lab.result;

import java.util.List;

/**
 * What a CPU sampler cost on the run's host, measured at the run's start before any target started: results.json's
 * {@code environment.profiler_costs} (docs/results-schema.md). A probe JVM ran alternately without and with the sampler
 * (docs/telemetry.md, "What the profiler costs on this host").
 *
 * @param profiler        the {@code --cpu-profiler} label: async, async-wall or jfr
 * @param withoutOpsPerS  the probe's operations per second without the sampler, one per pair, in the order they ran
 * @param withOpsPerS     the same with the sampler, pair by pair
 * @param costPct         1 - the median over the pairs of with / without, in %; null when the probe failed
 * @param limitPct        past it the run says the sampler's figures are not the apps' own speed
 * @param note            why there is no figure, in one line; null when there is one
 */
public record ProfilerCost(String profiler, List<Long> withoutOpsPerS, List<Long> withOpsPerS, Double costPct, double limitPct, String note) {
    public ProfilerCost {
        withoutOpsPerS = withoutOpsPerS == null ? List.of() : List.copyOf(withoutOpsPerS);
        withOpsPerS = withOpsPerS == null ? List.of() : List.copyOf(withOpsPerS);
    }

    /**
     * Whether every pair cost the probe more than the limit. On a host whose speed swings by 20% between seconds one pair in
     * three strays that far (docs/telemetry.md): a median alone past the limit once flagged a flag that does nothing (9.9%
     * over 3 pairs, limit 10%). With every pair past it, a sampler that truly cost the limit would show so in 1 of 2^n checks.
     */
    public boolean over() {
        return costPct != null && !withOpsPerS.isEmpty() && pairPcts()[0] > limitPct;
    }

    /** What each pair lost to the sampler, %: 1 - with / without, the least first. */
    public double[] pairPcts() {
        double[] out = new double[Math.min(withoutOpsPerS.size(), withOpsPerS.size())];
        for (int i = 0; i < out.length; i++) {
            out[i] = 100 * (1 - (double) withOpsPerS.get(i) / withoutOpsPerS.get(i));
        }
        java.util.Arrays.sort(out);
        return out;
    }
}
