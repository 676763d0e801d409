package dev.loomflux.lab.telemetry;

import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.result.ScenarioResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The sampler's readings as results.json fields: per-second series columns and per-phase ranges. */
public final class ResourceReport {
    public static final String TARGET = "target";
    public static final String STUB = "stub";
    public static final String DB = "db";

    private ResourceReport() {
    }

    /**
     * Adds cpu_pct, rss_mb, threads, fds, jit_compiles, jit_ms (target), canary_us and stub_cpu_pct,
     * db_cpu_pct to each row. Second t covers [t0 + t s, t0 + t s + 1 s); the reading that covers most
     * of it is taken, or null. The JIT columns are the counters' growth over the second.
     *
     * @param canary may be null
     */
    public static void addToSeries(ResourceSampler sampler, CpuCanary canary, List<Map<String, Object>> series, long t0) {
        for (Map<String, Object> row : series) {
            long t = ((Number) row.get("t")).longValue();
            long start = t0 + t * 1000;
            long from = start + 500;
            Reading target = first(sampler.readings(TARGET, from, from + 1000));
            row.put("cpu_pct", target == null ? null : ScenarioResult.round(target.cpuPct()));
            row.put("rss_mb", target == null ? null : ScenarioResult.round(target.rssMb()));
            row.put("threads", target == null ? null : target.threads());
            row.put("fds", target == null || target.fds() < 0 ? null : target.fds());
            Reading.Jit jit = jitBetween(sampler, start, start + 1000);
            row.put("jit_compiles", jit == null ? null : jit.compiles());
            row.put("jit_ms", jit == null ? null : ScenarioResult.round(jit.compileMs()));
            row.put("jit_cpu_ms", jit == null || jit.compilerCpuMs() < 0 ? null : ScenarioResult.round(jit.compilerCpuMs()));
            Double canaryUs = canary == null ? null : canary.microsIn(start, start + 1000);
            row.put("canary_us", canaryUs == null ? null : ScenarioResult.round(canaryUs));
            row.put("stub_cpu_pct", cpu(sampler, STUB, from));
            row.put("db_cpu_pct", cpu(sampler, DB, from));
        }
        addGroupToSeries(sampler, series, t0);
    }

    /**
     * A target under limits: per second, from its cgroup's accounting, the CPU every thread and child
     * used (cgroup_cpu_pct), the share of CFS periods in which the quota ran out (throttled_pct) and
     * the memory charged to it (cgroup_memory_mb). Columns only when the target had a cgroup, so an
     * unlimited run's CSV keeps its layout.
     */
    private static void addGroupToSeries(ResourceSampler sampler, List<Map<String, Object>> series, long t0) {
        if (series.isEmpty() || sampler.groupReadings(t0 - 2000, t0 + (series.size() + 2) * 1000L).isEmpty()) {
            return;
        }
        for (Map<String, Object> row : series) {
            long start = t0 + ((Number) row.get("t")).longValue() * 1000;
            Cgroup.Usage a = lastGroup(sampler, start);
            Cgroup.Usage b = lastGroup(sampler, start + 1000);
            Cgroup.Change c = a != null && b != null && b.atNanos() > a.atNanos() ? b.since(a) : null;
            row.put("cgroup_cpu_pct", c == null ? null : ScenarioResult.round(c.cpuPct()));
            row.put("throttled_pct", c == null ? null : ScenarioResult.round(c.throttledPct()));
            row.put("cgroup_memory_mb", b == null ? null : ScenarioResult.round(b.memoryBytes() / 1048576.0));
        }
    }

    /** What the limits did in a phase: the same figures as results.json "limits", over the phase; null without a cgroup. */
    private static Map<String, Object> groupPhase(ResourceSampler sampler, Phase p) {
        List<ResourceSampler.GroupReading> in = sampler.groupReadings(p.fromMs() - ResourceSampler.PERIOD.toMillis(), p.toMs());
        if (in.size() < 2) {
            return null;
        }
        Cgroup.Change c = in.get(in.size() - 1).usage().since(in.get(0).usage());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu_pct", ScenarioResult.round(c.cpuPct()));
        m.put("throttled_pct", ScenarioResult.round(c.throttledPct()));
        m.put("throttled_s", ScenarioResult.round(c.throttledSeconds()));
        m.put("memory_max_mb", ScenarioResult.round(in.stream().mapToLong(r -> r.usage().memoryBytes()).max().orElse(0) / 1048576.0));
        m.put("oom_kills", c.oomKills());
        return m;
    }

    private static Cgroup.Usage lastGroup(ResourceSampler sampler, long epochMs) {
        List<ResourceSampler.GroupReading> r = sampler.groupReadings(epochMs - 2 * ResourceSampler.PERIOD.toMillis(), epochMs);
        return r.isEmpty() ? null : r.get(r.size() - 1).usage();
    }

    /**
     * The target JVM's JIT work between two moments: the growth of its counters from the last reading
     * at or before {@code fromMs} to the last at or before {@code toMs}; null when either is unknown.
     */
    public static Reading.Jit jitBetween(ResourceSampler sampler, long fromMs, long toMs) {
        Reading.Jit a = jitAt(sampler, fromMs);
        Reading.Jit b = jitAt(sampler, toMs);
        if (a == null || b == null) {
            return null;
        }
        boolean cpu = a.compilerCpuMs() >= 0 && b.compilerCpuMs() >= 0;
        return new Reading.Jit(b.compiles() - a.compiles(), b.compileMs() - a.compileMs(), cpu ? b.compilerCpuMs() - a.compilerCpuMs() : -1);
    }

    private static Reading.Jit jitAt(ResourceSampler sampler, long epochMs) {
        Reading r = last(sampler.readings(TARGET, epochMs - 2 * ResourceSampler.PERIOD.toMillis(), epochMs));
        return r == null ? null : r.jit();
    }

    /** One entry per phase: min/mean/max CPU and min/max RSS, threads and FDs of each role. */
    public static List<Map<String, Object>> phases(ResourceSampler sampler, List<Phase> phases, long t0) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Phase p : phases) {
            List<Reading> target = sampler.readings(TARGET, p.fromMs(), p.toMs());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", p.name());
            m.put("from_s", ScenarioResult.round((p.fromMs() - t0) / 1000.0));
            m.put("to_s", ScenarioResult.round((p.toMs() - t0) / 1000.0));
            m.put("samples", target.size());
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("cpu_pct", range(target, Reading::cpuPct, true));
            t.put("rss_mb", range(target, Reading::rssMb, false));
            t.put("threads", range(target, Reading::threads, false));
            t.put("fds", range(target.stream().filter(r -> r.fds() >= 0).toList(), Reading::fds, false));
            m.put("target", t);
            Map<String, Object> limits = groupPhase(sampler, p);
            if (limits != null) {
                m.put("limits", limits);
            }
            for (String role : List.of(STUB, DB)) {
                Map<String, Object> cpu = new LinkedHashMap<>();
                cpu.put("cpu_pct", range(sampler.readings(role, p.fromMs(), p.toMs()), Reading::cpuPct, true));
                m.put(role, sampler.watches(role) ? cpu : null);
            }
            out.add(m);
        }
        return out;
    }

    /** Counts (threads, FDs) stay integers in the JSON. */
    private static Number number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? (Number) (long) v : (Number) ScenarioResult.round(v);
    }

    private static Double cpu(ResourceSampler sampler, String role, long from) {
        if (!sampler.watches(role)) {
            return null;
        }
        Reading r = first(sampler.readings(role, from, from + 1000));
        return r == null ? null : ScenarioResult.round(r.cpuPct());
    }

    private static Reading first(List<Reading> readings) {
        return readings.isEmpty() ? null : readings.get(0);
    }

    private static Reading last(List<Reading> readings) {
        return readings.isEmpty() ? null : readings.get(readings.size() - 1);
    }

    /** null when the phase had no reading (shorter than a second, or the process was gone). */
    private static Map<String, Object> range(List<Reading> readings, ToDoubleFunction<Reading> f, boolean withMean) {
        if (readings.isEmpty()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("min", number(readings.stream().mapToDouble(f).min().orElseThrow()));
        if (withMean) {
            m.put("mean", number(readings.stream().mapToDouble(f).average().orElseThrow()));
        }
        m.put("max", number(readings.stream().mapToDouble(f).max().orElseThrow()));
        return m;
    }
}
