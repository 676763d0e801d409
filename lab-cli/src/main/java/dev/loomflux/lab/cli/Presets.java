package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Experiment files by path, or the presets in experiments/ by name or unique prefix. */
final class Presets {
    private Presets() {
    }

    static Path resolve(Home home, Path given) {
        if (Files.isRegularFile(given)) {
            return given;
        }
        String name = given.toString();
        if (name.contains("/") || name.endsWith(".yaml")) {
            throw new UsageException(given + ": no such experiment file");
        }
        List<Path> all = list(home);
        // A whole name wins over the longer names it begins: peer-10k is not also peer-10k-depth-1.
        List<Path> matches = all.stream().filter(p -> p.getFileName().toString().equals(name + ".yaml")).collect(Collectors.toList());
        if (matches.isEmpty()) {
            matches = all.stream().filter(p -> p.getFileName().toString().startsWith(name)).collect(Collectors.toList());
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        String known = all.stream().map(p -> p.getFileName().toString().replaceFirst("\\.yaml$", "")).collect(Collectors.joining(", "));
        throw new UsageException(matches.isEmpty()
                ? given + ": no such experiment file or preset (presets: " + known + ")"
                : given + ": ambiguous, matches " + matches.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", ")));
    }

    static List<Path> list(Home home) {
        Path dir = home.root().resolve("experiments");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UsageException(dir + ": cannot list presets (" + e.getMessage() + ")");
        }
    }
}
