package dev.loomflux.lab.telemetry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A process's OS threads at a moment: how long each ran, how long it waited runnable in the kernel's run queue for a CPU,
 * and how many times it was put on one ({@code /proc/<pid>/task/<tid>/schedstat}: on-CPU ns, run-queue ns, timeslices).
 * JFR sees the threads that run Java code; the time a runnable thread waits for a CPU, which its requests wait with it, it
 * does not see (docs/telemetry.md, "Where the time goes"). Two readings give each role's figures in between. A role is the
 * thread's kernel name (its first 15 characters) with each number after a {@code -}, {@code #} or {@code .} as N: Tomcat's
 * threads on 127.0.0.1 are all {@code http-nio-N.N.} (the address leaves no room to tell its workers from its poller),
 * Reactor Netty's event loops {@code reactor-http-ep}, the virtual threads' carriers {@code ForkJoinPool-N-}.
 *
 * @param threads by thread id; empty where the kernel keeps no schedstat, or the process is gone
 */
public record ThreadTimes(Map<Long, Thread> threads) {
    public static final ThreadTimes NONE = new ThreadTimes(Map.of());

    public record Thread(String role, long cpuNs, long waitNs, long slices) {
    }

    /**
     * A role's threads over an interval.
     *
     * @param threads how many threads had the role (the most in any one interval, when intervals are added)
     * @param cpuNs   their time on a CPU
     * @param waitNs  their time runnable, waiting for a CPU
     * @param slices  their turns on a CPU
     */
    public record RoleTimes(int threads, long cpuNs, long waitNs, long slices) {
        RoleTimes plus(RoleTimes o) {
            return new RoleTimes(Math.max(threads, o.threads), cpuNs + o.cpuNs, waitNs + o.waitNs, slices + o.slices);
        }
    }

    public ThreadTimes {
        threads = Map.copyOf(threads);
    }

    public static ThreadTimes read(long pid) {
        Map<Long, Thread> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String[] f = Files.readString(task.resolve("schedstat")).trim().split("\\s+");
                    String comm = Files.readString(task.resolve("comm")).trim();
                    threads.put(Long.parseLong(task.getFileName().toString()),
                            new Thread(role(comm), Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])));
                } catch (IOException | RuntimeException e) {
                    // Ended between the listing and the read, or the kernel keeps no schedstat: it counts for nothing.
                }
            }
        } catch (IOException e) {
            return NONE;
        }
        return new ThreadTimes(threads);
    }

    static String role(String comm) {
        return comm.replaceAll("(?<=[-#.])\\d+", "N");
    }

    /**
     * Each role's figures since {@code earlier}: a thread in both counts its difference, a thread born in between its whole
     * life; a thread that ended in between is lost with its figures (a JVM's threads outlive its blocks: Tomcat keeps its
     * idle workers a minute).
     */
    public Map<String, RoleTimes> since(ThreadTimes earlier) {
        Map<String, RoleTimes> out = new TreeMap<>();
        threads.forEach((tid, now) -> {
            Thread before = earlier.threads.getOrDefault(tid, new Thread(now.role, 0, 0, 0));
            out.merge(now.role, new RoleTimes(1, now.cpuNs - before.cpuNs, now.waitNs - before.waitNs, now.slices - before.slices),
                    (a, b) -> new RoleTimes(a.threads + b.threads, a.cpuNs + b.cpuNs, a.waitNs + b.waitNs, a.slices + b.slices));
        });
        return out;
    }

    /** Two intervals' roles together, as a JVM's blocks add up. */
    public static Map<String, RoleTimes> plus(Map<String, RoleTimes> a, Map<String, RoleTimes> b) {
        Map<String, RoleTimes> out = new TreeMap<>(a);
        b.forEach((role, r) -> out.merge(role, r, RoleTimes::plus));
        return out;
    }
}
