package dev.loomflux.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** The project checkout: where the built jars are and where results go. */
public final class Home {
    private final Path root;

    private Home(Path root) {
        this.root = root;
    }

    /** {@code ./lab} passes -Dloomflux.home; tests get it from surefire. */
    public static Home detect() {
        String prop = System.getProperty("loomflux.home");
        Path root = Path.of(prop != null ? prop : ".").toAbsolutePath().normalize();
        return new Home(root);
    }

    public Path root() {
        return root;
    }

    public Path results() {
        return root.resolve("results");
    }

    /** A new results/<timestamp>-<name> directory path (not created). */
    public Path newRunDir(String name) {
        return results().resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + name);
    }

    /** A built jar, or a one-line error saying how to build it. */
    public Path jar(String module, String name) {
        Path jar = root.resolve(module).resolve("target").resolve(name);
        if (!Files.isRegularFile(jar)) {
            throw new UsageException("jar not found: " + jar + " (build with ./mvnw -DskipTests package, or run ./lab which builds)");
        }
        return jar;
    }
}
