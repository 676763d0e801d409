package dev.loomflux.lab.paired;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.result.ThreadUse;
import dev.loomflux.lab.telemetry.CompilerThreads;
import dev.loomflux.lab.telemetry.ProcessProbe;
import dev.loomflux.lab.telemetry.ThreadTimes;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each JVM's counters (CPU, GC, JIT, memory, threads) read at its blocks' edges: at a block's measured start, after its
 * lead-in, and at its end; and at the same edges every JVM's compiler threads, since on shared target CPUs one JVM's compiling
 * slows another's block. The key of a reading is the JVM's label and the round ("mvc#2/7"); round -1 is the rounds' start.
 */
final class JvmReadings {
    private final Map<String, ProcessProbe> probes = new ConcurrentHashMap<>();
    private final Map<String, CompilerThreads> compilers = new HashMap<>();
    private final Map<String, ProcessProbe.Snapshot> atStart = new ConcurrentHashMap<>();
    private final Map<String, ProcessProbe.Snapshot> atEnd = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Double>> compilersAtStart = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Double>> compilersAtEnd = new ConcurrentHashMap<>();

    /**
     * A block's readings: at its measured start, at its end, and at the end of its JVM's block before (its JIT time counts from
     * there); and the compiler threads' CPU over its measured window, its own JVM's and the other JVMs' (ms), null where unknown.
     */
    record Edges(ProcessProbe.Snapshot from, ProcessProbe.Snapshot to, ProcessProbe.Snapshot previousEnd, Double compilerMs, Double othersCompilerMs) {
    }

    /** @param pids each JVM's process by its label */
    JvmReadings(Map<String, Long> pids) {
        pids.forEach((label, pid) -> {
            probes.put(label, new ProcessProbe(pid));
            compilers.put(label, new CompilerThreads(pid));
        });
    }

    /** Every JVM's compiler threads' CPU so far (ms), by label; a JVM /proc cannot tell of is absent. */
    private Map<String, Double> compilerCpu() {
        Map<String, Double> out = new HashMap<>();
        // One JVM at a time: each CompilerThreads keeps its own state.
        synchronized (compilers) {
            compilers.forEach((label, c) -> {
                double ms = c.cpuMs();
                if (ms >= 0) {
                    out.put(label, ms);
                }
            });
        }
        return out;
    }

    /** Each JVM's counters as the rounds start: its first block's JIT time counts from here (the key of a round before the first). */
    void readAtRoundsStart() {
        probes.keySet().forEach(label -> readFrom(label, 0));
    }

    /** A JVM's counters before its block of {@code round}, as the end of a block before it: its JIT time counts from here. */
    private void readFrom(String label, int round) {
        ProcessProbe.Snapshot s = probes.get(label).read();
        if (s != null) {
            atEnd.put(label + "/" + (round - 1), s);
        } else {
            atEnd.remove(label + "/" + (round - 1));
        }
    }

    /**
     * A fresh JVM in place of one that died, before its block of {@code round}: read from here, as the rounds' start reads the
     * others (its first block's JIT time counts from here).
     */
    void revived(String label, long pid, int round) {
        probes.put(label, new ProcessProbe(pid));
        synchronized (compilers) {
            compilers.put(label, new CompilerThreads(pid));
        }
        readFrom(label, round);
    }

    /** Reads a JVM as its block of {@code round} starts to be measured. */
    void start(String label, int round) {
        compilersAtStart.put(label + "/" + round, compilerCpu());
        ProcessProbe.Snapshot s = probes.get(label).read();
        if (s != null) {
            atStart.put(label + "/" + round, s);
        }
    }

    /** Reads a JVM as its block of {@code round} ends. */
    void end(String label, int round) {
        compilersAtEnd.put(label + "/" + round, compilerCpu());
        ProcessProbe.Snapshot s = probes.get(label).read();
        if (s != null) {
            atEnd.put(label + "/" + round, s);
        }
    }

    Edges edges(String label, int round) {
        String key = label + "/" + round;
        Map<String, Double> from = compilersAtStart.get(key);
        Map<String, Double> to = compilersAtEnd.get(key);
        Double own = null;
        Double others = null;
        if (from != null && to != null && from.keySet().equals(to.keySet()) && from.containsKey(label)) {
            own = Result.round(to.get(label) - from.get(label));
            others = Result.round(to.keySet().stream().filter(l -> !l.equals(label)).mapToDouble(l -> to.get(l) - from.get(l)).sum());
        }
        return new Edges(atStart.get(key), atEnd.get(key), atEnd.get(label + "/" + (round - 1)), own, others);
    }

    /**
     * A JVM's OS threads by role over its measured blocks (each read at the block's measured start and its end), per response,
     * the busiest role first; null where the kernel keeps no schedstat. A role whose threads neither ran nor waited 0.05 µs per
     * response (the JVM's idle helpers) is left out.
     */
    List<ThreadUse> threads(String label, List<Block> own) {
        Map<String, ThreadTimes.RoleTimes> roles = Map.of();
        long responses = 0;
        for (Block b : own) {
            ProcessProbe.Snapshot from = atStart.get(label + "/" + b.round());
            ProcessProbe.Snapshot to = atEnd.get(label + "/" + b.round());
            if (from != null && to != null) {
                roles = ThreadTimes.plus(roles, to.threads().since(from.threads()));
                responses += b.responses();
            }
        }
        if (roles.isEmpty() || responses == 0) {
            return null;
        }
        long n = responses;
        return roles.entrySet().stream()
                .map(e -> ThreadUse.of(e.getKey(), e.getValue().threads(), e.getValue().cpuNs(), e.getValue().waitNs(), e.getValue().slices(), n))
                .filter(t -> t.cpuUsPerRequest() + t.waitUsPerRequest() >= 0.05)
                .sorted(Comparator.comparingDouble(ThreadUse::cpuUsPerRequest).reversed()).toList();
    }

    /** The JIT's work from the end of a JVM's block before its measured ones to the end of its last; null without both readings. */
    SteadyState.JitWork jitWork(String label, List<Block> own) {
        ProcessProbe.Snapshot from = atEnd.get(label + "/" + (own.get(0).round() - 1));
        ProcessProbe.Snapshot to = atEnd.get(label + "/" + own.get(own.size() - 1).round());
        if (from == null || to == null || from.jitMs() < 0 || to.jitMs() < 0) {
            return null;
        }
        return new SteadyState.JitWork(to.jitCompiles() - from.jitCompiles(), Result.round(to.jitMs() - from.jitMs()), null);
    }
}
