package dev.loomflux.lab.limits;

import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one place where cgroup v1 and v2 differ: where a target's groups go and which files hold its
 * limits and accounting. v1 has a group per controller, each in its own hierarchy; v2 one group in the
 * unified hierarchy. A group is given as its folder in each hierarchy, by hierarchy name.
 */
sealed interface Layout permits Layout.V1, Layout.V2 {
    static Layout read() {
        return of(Hierarchies.read());
    }

    static Layout of(Hierarchies h) {
        // A hybrid machine binds cpu and memory to v1 and leaves its unified hierarchy without them.
        if (h.unifiedDir().isPresent() && V1.CONTROLLERS.stream().anyMatch(c -> h.ownDir(c).isEmpty())) {
            return new V2(h.unifiedDir().get(), Fs.REAL);
        }
        return new V1(h);
    }

    /** The lab's own groups, by hierarchy: the targets' groups are made in them. */
    Map<String, Path> parents();

    /** Why targets' groups cannot be made here, or empty when they can (v2 first makes its own group able to). */
    Optional<String> unsupported();

    void limit(Map<String, Path> dirs, ResourceLimits limits);

    Cgroup.Usage usage(Map<String, Path> dirs);

    /** Where a process still in {@code dir} goes so that the group can be removed. */
    Path evacuateTo(Path dir);

    /** How the limits are applied, for results.json. */
    String mechanism();

    Fs fs();

    default void write(Path file, String value) {
        try {
            fs().write(file, value);
        } catch (IOException e) {
            throw new LabException("cannot write " + value + " to " + file + ": " + why(e), e);
        }
    }

    /** The kernel's side of a cgroup file system; a test stands a plain folder and a few rules in for it. */
    interface Fs {
        Fs REAL = new Fs() {
        };

        default void mkdir(Path dir) throws IOException {
            Files.createDirectories(dir);
        }

        default void write(Path file, String value) throws IOException {
            Files.writeString(file, value);
        }

        default void rmdir(Path dir) throws IOException {
            Files.delete(dir);
        }
    }

    record V1(Hierarchies h) implements Layout {
        static final List<String> CONTROLLERS = List.of("cpu", "cpuacct", "memory");

        @Override
        public Map<String, Path> parents() {
            Map<String, Path> out = new LinkedHashMap<>();
            CONTROLLERS.forEach(c -> h.ownDir(c).ifPresent(dir -> out.put(c, dir)));
            return out;
        }

        @Override
        public Optional<String> unsupported() {
            for (String c : CONTROLLERS) {
                Optional<Path> own = h.ownDir(c);
                if (own.isEmpty()) {
                    return Optional.of("no cgroup v1 " + c + " controller mounted" + (h.v2() ? " (and no cgroup v2 group of the lab)" : ""));
                }
                if (!Files.isWritable(own.get())) {
                    return Optional.of("cannot create cgroups under " + own.get() + " (run as root, or delegate the cgroup)");
                }
            }
            return Optional.empty();
        }

        @Override
        public void limit(Map<String, Path> dirs, ResourceLimits limits) {
            if (limits.cpus() > 0) {
                write(dirs.get("cpu").resolve("cpu.cfs_period_us"), Long.toString(Cgroup.PERIOD_US));
                write(dirs.get("cpu").resolve("cpu.cfs_quota_us"), Long.toString(quotaUs(limits)));
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
        }

        @Override
        public Cgroup.Usage usage(Map<String, Path> dirs) {
            Map<String, Long> cpuStat = keyValues(dirs.get("cpu").resolve("cpu.stat"));
            Map<String, Long> oom = keyValues(dirs.get("memory").resolve("memory.oom_control"));
            return new Cgroup.Usage(System.nanoTime(),
                    number(dirs.get("cpuacct").resolve("cpuacct.usage")),
                    cpuStat.getOrDefault("nr_periods", 0L),
                    cpuStat.getOrDefault("nr_throttled", 0L),
                    cpuStat.getOrDefault("throttled_time", 0L),
                    number(dirs.get("memory").resolve("memory.usage_in_bytes")),
                    number(dirs.get("memory").resolve("memory.max_usage_in_bytes")),
                    oom.getOrDefault("oom_kill", 0L));
        }

        @Override
        public Path evacuateTo(Path dir) {
            return dir.getParent();
        }

        @Override
        public String mechanism() {
            return "cgroup v1: cpu.cfs_quota_us per " + Cgroup.PERIOD_US / 1000 + " ms period, memory.limit_in_bytes without swap";
        }

        @Override
        public Fs fs() {
            return Fs.REAL;
        }
    }

    /** @param own the lab's own group: where it runs, or the parent of the leaf it was moved to */
    record V2(Path own, Fs fs) implements Layout {
        /** No target's folder can have this name: theirs end with the lab's pid. */
        static final String LEAF = "loomflux-lab";

        public V2 {
            // A shell moved into the leaf by an earlier lab starts later labs there too.
            if (own.getFileName() != null && own.getFileName().toString().equals(LEAF)) {
                own = own.getParent();
            }
        }

        @Override
        public Map<String, Path> parents() {
            return Map.of("cgroup2", own);
        }

        @Override
        public Optional<String> unsupported() {
            if (!Files.isWritable(own)) {
                return Optional.of("cannot create cgroups under " + own + " (run as root, or delegate the cgroup)");
            }
            Path available = own.resolve("cgroup.controllers");
            List<String> controllers = words(available);
            for (String c : List.of("cpu", "memory")) {
                if (!controllers.contains(c)) {
                    return Optional.of("cgroup v2: no " + c + " controller in " + available + " (" + (controllers.isEmpty() ? "none" : String.join(" ", controllers)) + ")");
                }
            }
            Path subtree = own.resolve("cgroup.subtree_control");
            if (words(subtree).containsAll(List.of("cpu", "memory"))) {
                return Optional.empty();
            }
            // Controllers reach child groups only from a group without processes of its own (the root
            // excepted, which alone has no cgroup.type): so the lab and whatever shares its group move to a
            // leaf first, as rootless container runtimes do.
            Path procs = own.resolve("cgroup.procs");
            Path leaf = own.resolve(LEAF);
            String step = "read " + procs;
            try {
                List<String> pids = Files.exists(own.resolve("cgroup.type")) ? lines(procs) : List.of();
                if (!pids.isEmpty()) {
                    step = "create " + leaf;
                    fs.mkdir(leaf);
                    step = "write to " + leaf.resolve("cgroup.procs");
                    for (String pid : pids) {
                        try {
                            fs.write(leaf.resolve("cgroup.procs"), pid);
                        } catch (IOException e) {
                            if (ProcessHandle.of(Long.parseLong(pid)).isPresent()) {
                                throw e;
                            }
                        }
                    }
                }
                step = "write to " + subtree;
                fs.write(subtree, "+cpu +memory");
                return Optional.empty();
            } catch (IOException e) {
                return Optional.of("cgroup v2: cannot " + step + ": " + why(e) + " (needed to give child groups cpu and memory limits)");
            }
        }

        @Override
        public void limit(Map<String, Path> dirs, ResourceLimits limits) {
            Path dir = dirs.get("cgroup2");
            write(dir.resolve("cpu.max"), (limits.cpus() > 0 ? Long.toString(quotaUs(limits)) : "max") + " " + Cgroup.PERIOD_US);
            if (limits.memoryBytes() > 0) {
                write(dir.resolve("memory.max"), Long.toString(limits.memoryBytes()));
                // A container without swap, as v1's memsw limit; absent where the kernel accounts no swap.
                Path swap = dir.resolve("memory.swap.max");
                if (Files.exists(swap)) {
                    write(swap, "0");
                }
            }
        }

        @Override
        public Cgroup.Usage usage(Map<String, Path> dirs) {
            Path dir = dirs.get("cgroup2");
            Map<String, Long> cpuStat = keyValues(dir.resolve("cpu.stat"));
            return new Cgroup.Usage(System.nanoTime(),
                    cpuStat.getOrDefault("usage_usec", 0L) * 1000,
                    cpuStat.getOrDefault("nr_periods", 0L),
                    cpuStat.getOrDefault("nr_throttled", 0L),
                    cpuStat.getOrDefault("throttled_usec", 0L) * 1000,
                    number(dir.resolve("memory.current")),
                    // Kernels before 5.19 have no memory.peak: the peak reads 0 there.
                    number(dir.resolve("memory.peak")),
                    keyValues(dir.resolve("memory.events")).getOrDefault("oom_kill", 0L));
        }

        /** The leaf, where the lab is; the parent when there is none (the lab's group is the root, which may have processes). */
        @Override
        public Path evacuateTo(Path dir) {
            Path leaf = own.resolve(LEAF);
            return Files.isDirectory(leaf) ? leaf : dir.getParent();
        }

        @Override
        public String mechanism() {
            return "cgroup v2: cpu.max per " + Cgroup.PERIOD_US / 1000 + " ms period, memory.max without swap";
        }
    }

    private static long quotaUs(ResourceLimits limits) {
        return Math.round(limits.cpus() * Cgroup.PERIOD_US);
    }

    /** The kernel's reason ("Device or resource busy"), without the file name Java puts before it. */
    private static String why(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
    }

    static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static List<String> words(Path file) {
        try {
            return Arrays.stream(Files.readString(file).strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
        } catch (IOException e) {
            return List.of();
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
}
