package dev.loomflux.lab.limits;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.process.LabProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Container-like limits for one process tree without Docker: a cgroup per target (cgroup v1: one per
 * controller, cpu for the CFS quota, cpuacct for exact CPU accounting, memory for the hard limit;
 * cgroup v2: one in the unified hierarchy; {@link Layout} holds the difference), nested under the lab's
 * own group, so that whatever limits the lab itself also limits its targets. The process joins its
 * group before it execs, so its first instruction already runs limited.
 */
public final class Cgroup implements AutoCloseable {
    /** The CFS period a container runtime uses: a quota of 0.5 CPU is 50 ms of CPU time per 100 ms. */
    public static final long PERIOD_US = 100_000;

    private final LabProcesses owner;
    private final Layout layout;
    private final Map<String, Path> dirs;
    private final ResourceLimits limits;

    private Cgroup(LabProcesses owner, Layout layout, Map<String, Path> dirs, ResourceLimits limits) {
        this.owner = owner;
        this.layout = layout;
        this.dirs = dirs;
        this.limits = limits;
    }

    /**
     * Why limits cannot be applied here, or empty when they can: cgroup v1 with the cpu, cpuacct and
     * memory controllers mounted and writable, or cgroup v2 with cpu and memory delegated to the lab's
     * group. On v2 the first call moves the processes of the lab's group into a leaf (see {@link Layout.V2}).
     */
    public static Optional<String> unsupported() {
        return Layout.read().unsupported();
    }

    /** How the limits are applied here, e.g. "cgroup v2: cpu.max per 100 ms period, memory.max without swap". */
    public static String mechanism() {
        return Layout.read().mechanism();
    }

    /**
     * Creates the groups and writes the limits; {@code name} becomes part of the folder names.
     *
     * @param owner removes them if the lab is stopped first
     */
    public static Cgroup create(LabProcesses owner, String name, ResourceLimits limits) {
        return create(owner, Layout.read(), name, limits);
    }

    static Cgroup create(LabProcesses owner, Layout layout, String name, ResourceLimits limits) {
        layout.unsupported().ifPresent(reason -> {
            throw new LabException("--cpus/--memory: " + reason);
        });
        String folder = "loomflux-" + name.replaceAll("[^A-Za-z0-9_-]", "-") + "-" + ProcessHandle.current().pid();
        Map<String, Path> dirs = new LinkedHashMap<>();
        Cgroup group = new Cgroup(owner, layout, dirs, limits);
        try {
            for (Map.Entry<String, Path> parent : layout.parents().entrySet()) {
                sweepStale(layout, parent.getValue());
                Path dir = parent.getValue().resolve(folder);
                layout.fs().mkdir(dir);
                dirs.put(parent.getKey(), dir);
            }
            layout.limit(dirs, limits);
            // Ctrl-C closes it too, after the process in it (the owner closes newest first).
            owner.register(group);
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
        return layout.usage(dirs);
    }

    /** Why a process in the group died, when the kernel killed it for the memory limit. */
    public Optional<String> oomCause() {
        return usage().oomKills() == 0 ? Optional.empty()
                : Optional.of("killed by its memory limit of " + limits.memoryBytes() / (1 << 20) + " MB");
    }

    /**
     * Removes the groups; a process still inside is moved out first (it is ending anyway). On v2 the
     * lab's leaf stays: the lab and the processes it moved there are still in it.
     */
    @Override
    public void close() {
        owner.unregister(this);
        for (Path dir : dirs.values()) {
            for (int attempt = 0; attempt < 20 && Files.exists(dir); attempt++) {
                try {
                    layout.fs().rmdir(dir);
                } catch (IOException e) {
                    evacuate(dir);
                    Pause.sleep(Duration.ofMillis(50));
                }
            }
        }
    }

    /** The groups this lab process has now: none once its targets are closed. */
    public static List<Path> ofThisLab() {
        return ofThisLab(Layout.read());
    }

    static List<Path> ofThisLab(Layout layout) {
        String suffix = "-" + ProcessHandle.current().pid();
        List<Path> out = new ArrayList<>();
        for (Path own : layout.parents().values()) {
            try (var children = Files.list(own)) {
                children.filter(d -> d.getFileName().toString().startsWith("loomflux-") && d.getFileName().toString().endsWith(suffix))
                        .forEach(out::add);
            } catch (IOException e) {
                // An unreadable hierarchy has no groups of ours.
            }
        }
        return out;
    }

    /** Groups left by a lab that was SIGKILLed (its pid ends their names) are removed once they are empty. */
    private static void sweepStale(Layout layout, Path own) {
        try (var children = Files.list(own)) {
            children.filter(d -> d.getFileName().toString().matches("loomflux-.*-\\d+")).forEach(d -> {
                String name = d.getFileName().toString();
                long pid = Long.parseLong(name.substring(name.lastIndexOf('-') + 1));
                if (ProcessHandle.of(pid).isEmpty()) {
                    try {
                        layout.fs().rmdir(d);
                    } catch (IOException e) {
                        // Still has a process in it: not ours to move.
                    }
                }
            });
        } catch (IOException e) {
            // Nothing to sweep.
        }
    }

    private void evacuate(Path dir) {
        try {
            for (String pid : Layout.lines(dir.resolve("cgroup.procs"))) {
                layout.write(layout.evacuateTo(dir).resolve("cgroup.procs"), pid);
            }
        } catch (IOException | RuntimeException e) {
            // The process may have exited meanwhile; the next attempt tells.
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
