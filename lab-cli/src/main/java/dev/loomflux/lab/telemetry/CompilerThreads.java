package dev.loomflux.lab.telemetry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of a HotSpot JVM's JIT compiler threads ("C1 CompilerThread0", "C2 CompilerThread0"; Linux
 * shows 15 characters), read from /proc. hsperfdata counts a compilation only when it finishes, and
 * a C2 compile starved of CPU by the target's own workers can run for tens of seconds: here webflux
 * looked quiet for 20 s, then finished 13 s of compiles during the measurement. CPU time counts a
 * compilation while it runs. Linux only; elsewhere {@link #cpuMs()} is -1.
 */
public final class CompilerThreads {
    private static final double MS_PER_TICK = 10; // USER_HZ is 100 on every Linux the lab supports

    private final Path tasks;
    private final Map<Long, Boolean> compiler = new HashMap<>();
    /** Last CPU time seen per compiler thread; a thread that exits keeps its share of the total. */
    private final Map<Long, Double> cpu = new HashMap<>();

    public CompilerThreads(long pid) {
        this.tasks = Path.of("/proc", Long.toString(pid), "task");
    }

    /** Cumulative CPU time of every compiler thread this JVM has had, in ms; -1 when /proc cannot tell. */
    public double cpuMs() {
        try (Stream<Path> threads = Files.list(tasks)) {
            threads.forEach(t -> {
                long tid = Long.parseLong(t.getFileName().toString());
                if (compiler.computeIfAbsent(tid, k -> name(t).contains("CompilerThre"))) {
                    double ms = cpuMs(t);
                    if (ms >= 0) {
                        cpu.put(tid, ms);
                    }
                }
            });
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return cpu.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    private static String name(Path task) {
        try {
            return Files.readString(task.resolve("comm"));
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The thread's CPU time in ms: schedstat's run time (ns), where the kernel keeps it; else stat's ticks. A block's window is a
     * second, in which ticks of 10 ms per thread would blur the limit a block is judged by (2% of a CPU, 20 ms).
     */
    private static double cpuMs(Path task) {
        try {
            return Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split("\\s+")[0]) / 1e6;
        } catch (IOException | RuntimeException e) {
            long ticks = ticks(task);
            return ticks < 0 ? -1 : ticks * MS_PER_TICK;
        }
    }

    /** utime + stime from /proc/<pid>/task/<tid>/stat: fields 14 and 15, counted after the ")" that ends the name. */
    private static long ticks(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
