package dev.loomflux.lab.telemetry;

import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.result.PhaseStats;
import dev.loomflux.lab.result.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The sampler's readings as results.json fields: per-second series columns and per-phase ranges. */
public final class ResourceReport {
    public static final String TARGET = "target";
    public static final String STUB = "stub";
    public static final String DB = "db";

    private ResourceReport() {
    }

    /**
     * The rows with cpu_pct, rss_mb, threads, fds, jit_compiles, jit_ms (target), canary_us and
     * stub_cpu_pct, db_cpu_pct. Second t covers [t0 + t s, t0 + t s + 1 s); the reading that covers
     * most of it is taken, or null. The JIT columns are the counters' growth over the second.
     *
     * @param canary may be null
     */
    public static List<Result.PerSecond> addToSeries(ResourceSampler sampler, CpuCanary canary, List<Result.PerSecond> series, long t0) {
        List<Result.PerSecond> out = new ArrayList<>();
        for (Result.PerSecond row : series) {
            long start = t0 + row.t() * 1000L;
            long from = start + 500;
            Reading target = first(sampler.readings(TARGET, from, from + 1000));
            Reading.Jit jit = jitBetween(sampler, start, start + 1000);
            Double canaryUs = canary == null ? null : canary.microsIn(start, start + 1000);
            out.add(row.withTarget(new Result.SecondTarget(target == null ? null : Result.round(target.cpuPct()),
                            target == null ? null : Result.round(target.rssMb()), target == null ? null : target.threads(),
                            target == null || target.fds() < 0 ? null : target.fds()),
                    new Result.SecondJit(jit == null ? null : jit.compiles(), jit == null ? null : Result.round(jit.compileMs()),
                            jit == null || jit.compilerCpuMs() < 0 ? null : Result.round(jit.compilerCpuMs())),
                    new Result.SecondBeside(canaryUs == null ? null : Result.round(canaryUs), cpu(sampler, STUB, from), cpu(sampler, DB, from))));
        }
        return addGroupToSeries(sampler, out, t0);
    }

    /**
     * A target under limits: per second, from its cgroup's accounting, the CPU every thread and child
     * used (cgroup_cpu_pct), the share of CFS periods in which the quota ran out (throttled_pct) and
     * the memory charged to it (cgroup_memory_mb). Only when the target had a cgroup, so an unlimited
     * run's rows and CSV keep their layout.
     */
    private static List<Result.PerSecond> addGroupToSeries(ResourceSampler sampler, List<Result.PerSecond> series, long t0) {
        if (series.isEmpty() || sampler.groupReadings(t0 - 2000, t0 + (series.size() + 2) * 1000L).isEmpty()) {
            return series;
        }
        List<Result.PerSecond> out = new ArrayList<>();
        for (Result.PerSecond row : series) {
            long start = t0 + row.t() * 1000L;
            Cgroup.Usage a = lastGroup(sampler, start);
            Cgroup.Usage b = lastGroup(sampler, start + 1000);
            Cgroup.Change c = a != null && b != null && b.atNanos() > a.atNanos() ? b.since(a) : null;
            out.add(row.withGroup(new Result.SecondCgroup(c == null ? null : Result.round(c.cpuPct()), c == null ? null : Result.round(c.throttledPct()),
                    b == null ? null : Result.round(b.memoryBytes() / 1048576.0))));
        }
        return out;
    }

    /** What the limits did in a phase: the same figures as results.json "limits", over the phase; null without a cgroup. */
    private static PhaseStats.CgroupUse groupPhase(ResourceSampler sampler, Phase p) {
        List<ResourceSampler.GroupReading> in = sampler.groupReadings(p.fromMs() - ResourceSampler.PERIOD.toMillis(), p.toMs());
        if (in.size() < 2) {
            return null;
        }
        Cgroup.Change c = in.get(in.size() - 1).usage().since(in.get(0).usage());
        return new PhaseStats.CgroupUse(Result.round(c.cpuPct()), Result.round(c.throttledPct()), Result.round(c.throttledSeconds()),
                Result.round(in.stream().mapToLong(r -> r.usage().memoryBytes()).max().orElse(0) / 1048576.0), c.oomKills());
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
    public static List<PhaseStats> phases(ResourceSampler sampler, List<Phase> phases, long t0) {
        List<PhaseStats> out = new ArrayList<>();
        for (Phase p : phases) {
            List<Reading> target = sampler.readings(TARGET, p.fromMs(), p.toMs());
            out.add(new PhaseStats(p.name(), Result.round((p.fromMs() - t0) / 1000.0), Result.round((p.toMs() - t0) / 1000.0), target.size(),
                    new PhaseStats.TargetRanges(range(target, Reading::cpuPct, true), range(target, Reading::rssMb, false),
                            range(target, Reading::threads, false), range(target.stream().filter(r -> r.fds() >= 0).toList(), Reading::fds, false)),
                    groupPhase(sampler, p), role(sampler, STUB, p), role(sampler, DB, p)));
        }
        return out;
    }

    private static PhaseStats.Role role(ResourceSampler sampler, String role, Phase p) {
        return sampler.watches(role) ? new PhaseStats.Role(range(sampler.readings(role, p.fromMs(), p.toMs()), Reading::cpuPct, true)) : null;
    }

    /** Counts (threads, FDs) stay integers in the JSON. */
    private static Number number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? (Number) (long) v : (Number) Result.round(v);
    }

    private static Double cpu(ResourceSampler sampler, String role, long from) {
        if (!sampler.watches(role)) {
            return null;
        }
        Reading r = first(sampler.readings(role, from, from + 1000));
        return r == null ? null : Result.round(r.cpuPct());
    }

    private static Reading first(List<Reading> readings) {
        return readings.isEmpty() ? null : readings.get(0);
    }

    private static Reading last(List<Reading> readings) {
        return readings.isEmpty() ? null : readings.get(readings.size() - 1);
    }

    /** null when the phase had no reading (shorter than a second, or the process was gone). */
    private static PhaseStats.Range range(List<Reading> readings, ToDoubleFunction<Reading> f, boolean withMean) {
        if (readings.isEmpty()) {
            return null;
        }
        return new PhaseStats.Range(number(readings.stream().mapToDouble(f).min().orElseThrow()),
                withMean ? number(readings.stream().mapToDouble(f).average().orElseThrow()) : null,
                number(readings.stream().mapToDouble(f).max().orElseThrow()));
    }
}
