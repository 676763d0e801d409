package dev.loomflux.lab.limits;

import java.util.LinkedHashMap;
import java.util.Map;

/** What the limits did to one measured window, from the cgroup's own accounting (results.json "limits"). */
public final class LimitsReport {
    private LimitsReport() {
    }

    /** @param start read as the measured load began, {@code end} as it ended */
    public static Map<String, Object> of(ResourceLimits limits, Cgroup.Usage start, Cgroup.Usage end) {
        double seconds = Math.max(1e-3, (end.atNanos() - start.atNanos()) / 1e9);
        long periods = end.periods() - start.periods();
        long throttled = end.throttledPeriods() - start.throttledPeriods();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpus", limits.cpus() > 0 ? limits.cpus() : null);
        m.put("memory_mb", limits.memoryBytes() > 0 ? limits.memoryBytes() / (1 << 20) : null);
        // Every thread and child of the target, counted by the kernel: a cross-check of the process sampler's cpu_pct.
        m.put("cpu_pct", round((end.cpuNanos() - start.cpuNanos()) / 1e9 / seconds * 100));
        m.put("periods", periods);
        m.put("throttled_periods", throttled);
        m.put("throttled_pct", periods == 0 ? 0.0 : round(100.0 * throttled / periods));
        m.put("throttled_s", round((end.throttledNanos() - start.throttledNanos()) / 1e9));
        m.put("memory_end_mb", round(end.memoryBytes() / 1048576.0));
        m.put("memory_peak_mb", round(end.peakMemoryBytes() / 1048576.0));
        m.put("oom_kills", end.oomKills());
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
