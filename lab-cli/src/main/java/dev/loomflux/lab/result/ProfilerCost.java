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

    /** Whether it cost the probe more than the limit. */
    public boolean over() {
        return costPct != null && costPct > limitPct;
    }
}
