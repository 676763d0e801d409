package dev.loomflux.lab.limits;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.process.Reaper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Container-like limits for one process tree without Docker: a cgroup v1 group per controller (cpu
 * for the CFS quota, cpuacct for exact CPU accounting, memory for the hard limit), nested under the
 * lab's own group in each hierarchy, so that whatever limits the lab itself also limits its targets.
 * The process joins the groups before it execs, so its first instruction already runs limited.
 */
public final class Cgroup implements AutoCloseable {
    /** The CFS period a container runtime uses: a quota of 0.5 CPU is 50 ms of CPU time per 100 ms. */
    public static final long PERIOD_US = 100_000;
    private static final List<String> CONTROLLERS = List.of("cpu", "cpuacct", "memory");

    private final Map<String, Path> dirs;
    private final ResourceLimits limits;

    private Cgroup(Map<String, Path> dirs, ResourceLimits limits) {
        this.dirs = dirs;
        this.limits = limits;
    }

    /**
     * Why limits cannot be applied here, or empty when they can: cgroup v1 with the cpu, cpuacct and
     * memory controllers mounted and writable.
     */
    public static Optional<String> unsupported() {
        Hierarchies h = Hierarchies.read();
        for (String c : CONTROLLERS) {
            Optional<Path> own = h.ownDir(c);
            if (own.isEmpty()) {
                return Optional.of("no cgroup v1 " + c + " controller mounted" + (h.v2() ? " (cgroup v2 is not supported yet)" : ""));
            }
            if (!Files.isWritable(own.get())) {
                return Optional.of("cannot create cgroups under " + own.get() + " (run as root, or delegate the cgroup)");
            }
        }
        return Optional.empty();
    }

    /** Creates the groups and writes the limits; {@code name} becomes part of the folder names. */
    public static Cgroup create(String name, ResourceLimits limits) {
        unsupported().ifPresent(reason -> {
            throw new LabException("--cpus/--memory: " + reason);
        });
        Hierarchies h = Hierarchies.read();
        String folder = "loomflux-" + name.replaceAll("[^A-Za-z0-9_-]", "-") + "-" + ProcessHandle.current().pid();
        Map<String, Path> dirs = new LinkedHashMap<>();
        Cgroup group = new Cgroup(dirs, limits);
        try {
            for (String c : CONTROLLERS) {
                sweepStale(h.ownDir(c).orElseThrow());
                Path dir = h.ownDir(c).orElseThrow().resolve(folder);
                Files.createDirectories(dir);
                dirs.put(c, dir);
            }
            if (limits.cpus() > 0) {
                write(dirs.get("cpu").resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
                write(dirs.get("cpu").resolve("cpu.cfs_quota_us"), Long.toString(Math.round(limits.cpus() * PERIOD_US)));
            }
            if (limits.memoryBytes() > 0) {
                Path mem = dirs.get("memory");
                write(mem.resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
                // A container without swap: the limit is the limit, not a point where paging starts.
                Path memsw = mem.resolve("memory.memsw.limit_in_bytes");
                if (Files.exists(memsw)) {
                    write(memsw, Long.toString(limits.memoryBytes()));
                }
            }
            // Ctrl-C closes it too, after the process in it (the Reaper closes newest first).
            Reaper.register(group);
            return group;
        } catch (IOException | RuntimeException e) {
            group.close();
            throw new LabException("cannot set up cgroup " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The command, made to join these groups before it runs: {@code sh -c '...; exec "$@"' sh command...}. */
    public List<String> wrap(List<String> command) {
        StringBuilder script = new StringBuilder();
        for (Path dir : dirs.values()) {
            script.append("echo $$ > '").append(dir.resolve("cgroup.procs")).append("' || exit 97; ");
        }
        script.append("exec \"$@\"");
        List<String> out = new ArrayList<>(List.of("sh", "-c", script.toString(), "sh"));
        out.addAll(command);
        return out;
    }

    public ResourceLimits limits() {
        return limits;
    }

    /** The group's own accounting, cumulative since it was made. */
    public Usage usage() {
        Map<String, Long> cpuStat = keyValues(dirs.get("cpu").resolve("cpu.stat"));
        Map<String, Long> oom = keyValues(dirs.get("memory").resolve("memory.oom_control"));
        return new Usage(System.nanoTime(),
                number(dirs.get("cpuacct").resolve("cpuacct.usage")),
                cpuStat.getOrDefault("nr_periods", 0L),
                cpuStat.getOrDefault("nr_throttled", 0L),
                cpuStat.getOrDefault("throttled_time", 0L),
                number(dirs.get("memory").resolve("memory.usage_in_bytes")),
                number(dirs.get("memory").resolve("memory.max_usage_in_bytes")),
                oom.getOrDefault("oom_kill", 0L));
    }

    /** Why a process in the group died, when the kernel killed it for the memory limit. */
    public Optional<String> oomCause() {
        return usage().oomKills() == 0 ? Optional.empty()
                : Optional.of("killed by its memory limit of " + limits.memoryBytes() / (1 << 20) + " MB");
    }

    /** Removes the groups; a process still inside is moved to the parent group first (it is ending anyway). */
    @Override
    public void close() {
        Reaper.unregister(this);
        for (Path dir : dirs.values()) {
            for (int attempt = 0; attempt < 20 && Files.exists(dir); attempt++) {
                try {
                    Files.delete(dir);
                } catch (IOException e) {
                    evacuate(dir);
                    sleep(50);
                }
            }
        }
    }

    /** The groups this lab process has now, in every hierarchy: none once its targets are closed. */
    public static List<Path> ofThisLab() {
        String suffix = "-" + ProcessHandle.current().pid();
        List<Path> out = new ArrayList<>();
        Hierarchies h = Hierarchies.read();
        for (String c : CONTROLLERS) {
            Optional<Path> own = h.ownDir(c);
            if (own.isEmpty()) {
                continue;
            }
            try (var children = Files.list(own.get())) {
                children.filter(d -> d.getFileName().toString().startsWith("loomflux-") && d.getFileName().toString().endsWith(suffix))
                        .forEach(out::add);
            } catch (IOException e) {
                // An unreadable hierarchy has no groups of ours.
            }
        }
        return out;
    }

    /** Groups left by a lab that was SIGKILLed (its pid ends their names) are removed once they are empty. */
    private static void sweepStale(Path own) {
        try (var children = Files.list(own)) {
            children.filter(d -> d.getFileName().toString().matches("loomflux-.*-\\d+")).forEach(d -> {
                String name = d.getFileName().toString();
                long pid = Long.parseLong(name.substring(name.lastIndexOf('-') + 1));
                if (ProcessHandle.of(pid).isEmpty()) {
                    try {
                        Files.delete(d);
                    } catch (IOException e) {
                        // Still has a process in it: not ours to move.
                    }
                }
            });
        } catch (IOException e) {
            // Nothing to sweep.
        }
    }

    private static void evacuate(Path dir) {
        try {
            for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                write(dir.getParent().resolve("cgroup.procs"), pid.strip());
            }
        } catch (IOException | RuntimeException e) {
            // The process may have exited meanwhile; the next attempt tells.
        }
    }

    private static void write(Path file, String value) {
        try {
            Files.writeString(file, value);
        } catch (IOException e) {
            throw new LabException("cannot write " + value + " to " + file + ": " + e.getMessage(), e);
        }
    }

    private static long number(Path file) {
        try {
            return Long.parseLong(Files.readString(file).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private static Map<String, Long> keyValues(Path file) {
        Map<String, Long> out = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String[] kv = line.strip().split("\\s+");
                if (kv.length == 2 && kv[1].matches("\\d+")) {
                    out.put(kv[0], Long.parseLong(kv[1]));
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Cumulative figures, read at {@code atNanos} (System.nanoTime): CPU time in ns, CFS periods, memory in bytes. */
    public record Usage(long atNanos, long cpuNanos, long periods, long throttledPeriods, long throttledNanos, long memoryBytes, long peakMemoryBytes,
                        long oomKills) {
        /** What the group did between {@code earlier} and this reading. */
        public Change since(Usage earlier) {
            long periods = this.periods - earlier.periods;
            return new Change((cpuNanos - earlier.cpuNanos) * 100.0 / Math.max(1, atNanos - earlier.atNanos), periods,
                    throttledPeriods - earlier.throttledPeriods,
                    periods == 0 ? 0 : 100.0 * (throttledPeriods - earlier.throttledPeriods) / periods,
                    (throttledNanos - earlier.throttledNanos) / 1e9, oomKills - earlier.oomKills);
        }
    }

    /** CPU used (100 = one core, every thread and child), CFS periods and the share throttled, time throttled, OOM kills. */
    public record Change(double cpuPct, long periods, long throttledPeriods, double throttledPct, double throttledSeconds, long oomKills) {
    }
}
