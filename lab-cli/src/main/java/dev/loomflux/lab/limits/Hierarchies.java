package dev.loomflux.lab.limits;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where each cgroup v1 controller and the cgroup v2 hierarchy are mounted, and which group the lab itself
 * is in (/proc/self/mounts, /proc/self/cgroup); {@code unifiedMount} and {@code unifiedPath} are null without v2.
 */
record Hierarchies(Map<String, Path> mounts, Map<String, String> own, Path unifiedMount, String unifiedPath) {
    static Hierarchies read() {
        return parse(lines(Path.of("/proc/self/mounts")), lines(Path.of("/proc/self/cgroup")));
    }

    static Hierarchies parse(List<String> mountLines, List<String> cgroupLines) {
        Map<String, Path> mounts = new HashMap<>();
        Path unifiedMount = null;
        for (String line : mountLines) {
            String[] f = line.split(" ");
            if (f.length < 4) {
                continue;
            }
            if (f[2].equals("cgroup2")) {
                unifiedMount = unifiedMount == null ? Path.of(f[1]) : unifiedMount;
            } else if (f[2].equals("cgroup")) {
                for (String option : f[3].split(",")) {
                    mounts.putIfAbsent(option, Path.of(f[1]));
                }
            }
        }
        Map<String, String> own = new HashMap<>();
        String unifiedPath = null;
        for (String line : cgroupLines) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && !f[1].isEmpty()) {
                Arrays.stream(f[1].split(",")).forEach(c -> own.put(c, f[2]));
            } else if (f.length == 3 && f[0].equals("0")) {
                unifiedPath = f[2];
            }
        }
        return new Hierarchies(mounts, own, unifiedMount, unifiedPath);
    }

    boolean v2() {
        return unifiedMount != null;
    }

    /** The lab's own group's folder in the controller's hierarchy. */
    Optional<Path> ownDir(String controller) {
        return under(mounts.get(controller), own.get(controller));
    }

    /** The lab's own group's folder in the cgroup v2 hierarchy. */
    Optional<Path> unifiedDir() {
        return under(unifiedMount, unifiedPath);
    }

    private static Optional<Path> under(Path mount, String path) {
        if (mount == null || path == null) {
            return Optional.empty();
        }
        return Optional.of(path.equals("/") ? mount : mount.resolve(path.substring(1)));
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
