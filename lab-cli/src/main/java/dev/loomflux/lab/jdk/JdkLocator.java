package dev.loomflux.lab.jdk;

import dev.loomflux.lab.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Finds a JDK that can run the targets (virtual threads need 21+). Explicit choices win and
 * must fit; otherwise the newest install in the platform's usual folders is taken.
 */
public final class JdkLocator {
    public static final int MIN_FEATURE = 21;

    private final Map<String, String> env;
    private final List<Path> searchDirs;

    public JdkLocator(Map<String, String> env, List<Path> searchDirs) {
        this.env = env;
        this.searchDirs = searchDirs;
    }

    public static JdkLocator system() {
        String home = System.getProperty("user.home");
        return new JdkLocator(System.getenv(), List.of(
                Path.of("/usr/lib/jvm"),
                Path.of("/usr/java"),
                Path.of("/opt/java"),
                Path.of("/Library/Java/JavaVirtualMachines"),
                Path.of(home, "Library/Java/JavaVirtualMachines"),
                Path.of(home, ".sdkman/candidates/java"),
                Path.of(home, ".jdks")));
    }

    /** @param explicit the --java option, or null */
    public Jdk locate(String explicit) {
        List<String> searched = new ArrayList<>();
        if (explicit != null) {
            return required("--java " + explicit, Path.of(explicit));
        }
        String fromEnv = env.get("LOOMFLUX_JAVA");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return required("LOOMFLUX_JAVA=" + fromEnv, Path.of(fromEnv));
        }
        String javaHome = env.get("JAVA_HOME");
        if (javaHome != null && !javaHome.isBlank()) {
            Optional<Jdk> jdk = inspect(Path.of(javaHome));
            if (jdk.isPresent() && jdk.get().feature() >= MIN_FEATURE) {
                return jdk.get();
            }
            searched.add("JAVA_HOME=" + javaHome + " (" + jdk.map(j -> "JDK " + j.version()).orElse("not a JDK") + ")");
        } else {
            searched.add("JAVA_HOME (not set)");
        }
        List<Jdk> found = new ArrayList<>();
        for (Path dir : searchDirs) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> children = Files.list(dir)) {
                children.sorted().forEach(child -> {
                    Optional<Jdk> jdk = inspect(child).or(() -> inspect(child.resolve("Contents/Home")));
                    jdk.ifPresent(j -> {
                        found.add(j);
                        searched.add(child + " (JDK " + j.version() + ")");
                    });
                });
            } catch (IOException e) {
                searched.add(dir + " (unreadable: " + e.getMessage() + ")");
            }
        }
        return found.stream()
                .filter(j -> j.feature() >= MIN_FEATURE)
                .max(Comparator.comparingInt(Jdk::feature).thenComparing(Jdk::version))
                .orElseThrow(() -> new UsageException("no JDK >= " + MIN_FEATURE + " found to run the targets; searched: "
                        + String.join(", ", searched) + " and " + searchDirs
                        + "; install one or pass --java /path/to/jdk (or set LOOMFLUX_JAVA)"));
    }

    private static Jdk required(String source, Path path) {
        Path home = path.endsWith(Path.of("bin", "java")) ? path.getParent().getParent() : path;
        Jdk jdk = inspect(home).orElseThrow(() -> new UsageException(source + ": not a JDK (no bin/java and release file)"));
        if (jdk.feature() < MIN_FEATURE) {
            throw new UsageException(source + ": JDK " + jdk.version() + " is too old; targets need " + MIN_FEATURE + "+ (virtual threads)");
        }
        return jdk;
    }

    /** Reads the JDK's own {@code release} file instead of spawning {@code java -version}. */
    static Optional<Jdk> inspect(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release) || !Files.isRegularFile(home.resolve("bin/java"))) {
            return Optional.empty();
        }
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(release)) {
            props.load(in);
        } catch (IOException e) {
            return Optional.empty();
        }
        String version = props.getProperty("JAVA_VERSION", "").replace("\"", "").trim();
        if (version.isEmpty()) {
            return Optional.empty();
        }
        String first = version.split("[.+\\-]")[0];
        int feature;
        try {
            feature = Integer.parseInt(first);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (feature == 1) { // 1.8.0_x style
            feature = Integer.parseInt(version.split("\\.")[1]);
        }
        return Optional.of(new Jdk(home.toAbsolutePath().normalize(), feature, version));
    }
}
