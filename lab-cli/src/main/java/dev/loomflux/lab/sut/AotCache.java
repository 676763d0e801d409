package dev.loomflux.lab.sut;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * A class cache for a built-in jar ({@code --aot-cache}): JDK 25's AOT cache (JEP 483, made in one step
 * by JEP 514). It is made once per jar and JDK by a training
 * start that only waits until the app answers and then exits, so it holds the classes of startup and no
 * profile of the request paths a run measures. A Spring Boot fat jar cannot be cached (its nested jars
 * load through Boot's own class loader), so the jar is extracted first, as Boot's documentation advises,
 * and the process then runs from the extracted jar.
 *
 * <p>Measured here (JDK 25, 2 CPUs, idle): mvc ready in 7.7-8.0 s from the fat jar, 3.5-3.9 s from the
 * extracted jar with its cache (4.9 s with a dynamic CDS archive instead). Making the cache took 18 s.
 */
public final class AotCache {
    /** From SIGTERM until the training JVM has written its cache (JDK 25 assembles it in a child JVM): 12 s here. */
    private static final Duration WRITE_PATIENCE = Duration.ofSeconds(120);
    private static final Duration EXTRACT_PATIENCE = Duration.ofSeconds(60);

    /** How to start the app: the flags that use the cache, and the extracted jar. */
    record Launch(List<String> flags, Path jar) {
    }

    private AotCache() {
    }

    /** A one-line error for a JDK that cannot make the cache in one step. */
    public static void requireJdk(Jdk jdk) {
        if (jdk.feature() < MIN_JDK) {
            throw new UsageException("--aot-cache: needs JDK " + MIN_JDK + " or newer to run the targets; " + jdk.home() + " is " + jdk.version()
                    + " (choose one with --java)");
        }
    }

    /** JDK 24 has the cache but makes it in two steps; 25 in one (JEP 514). */
    public static final int MIN_JDK = 25;
    static final String FILE = "app.aot";

    /**
     * The jar's launch from its cache, made first when there is none for this jar and JDK. One at a time:
     * the paired design starts every JVM at once, and mvc and mvc-vt share a jar.
     *
     * @param jvmFlags the flags the app runs with: a cache made without JFR's module is refused with it
     *                 ("Mismatched values for property jdk.module.addmods"), and it keeps heap objects of one GC
     * @param args     the app's arguments to serve on a port, for the training start
     * @param probe    the path that answers 200 once the app is ready
     */
    static synchronized Launch of(LabProcesses owner, Jdk jdk, String host, Path jar, List<String> jvmFlags, IntFunction<List<String>> args, String probe) {
        Path dir = folder(jdk, jar);
        Path extracted = dir.resolve(jar.getFileName());
        Path cache = dir.resolve(FILE);
        if (!Files.isRegularFile(cache)) {
            make(owner, jdk, host, jar, dir, extracted, cache, jvmFlags, args, probe);
        }
        return new Launch(List.of("-XX:AOTCache=" + cache), extracted);
    }

    /** One folder per jar build and JDK build beside the jar: a rebuilt jar gets a new cache and its old ones go. */
    private static Path folder(Jdk jdk, Path jar) {
        return jar.toAbsolutePath().getParent().resolve("aot").resolve(build(jar) + "-jdk" + jdk.version().replaceAll("[^A-Za-z0-9.+-]", "_"));
    }

    /** "loomflux-mvc-27299-1764164580000": the jar's name, size and time. */
    private static String build(Path jar) {
        try {
            return jar.getFileName().toString().replaceFirst("\\.jar$", "") + "-" + Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis();
        } catch (IOException e) {
            throw new LabException("--aot-cache: cannot read " + jar + ": " + e.getMessage(), e);
        }
    }

    private static void make(LabProcesses owner, Jdk jdk, String host, Path jar, Path dir, Path extracted, Path cache, List<String> jvmFlags,
                             IntFunction<List<String>> args, String probe) {
        String name = jar.getFileName().toString();
        try {
            pruneOlderBuilds(dir, name.replaceFirst("\\.jar$", ""), build(jar));
            deleteTree(dir);
            Files.createDirectories(dir);
            extract(jdk, jar, dir);
            // Written under another name and moved when whole: a file that exists is a finished cache.
            Path part = dir.resolve(cache.getFileName() + ".part");
            int port = Ports.free(host);
            List<String> cmd = new ArrayList<>(List.of(jdk.java().toString()));
            cmd.addAll(jvmFlags);
            cmd.add("-XX:AOTCacheOutput=" + part);
            cmd.add("-jar");
            cmd.add(extracted.toString());
            cmd.addAll(args.apply(port));
            ManagedProcess p = ManagedProcess.start(owner, name + " (AOT cache training)", cmd, dir.resolve("training.log"));
            try {
                Readiness.await(p, URI.create("http://" + host + ":" + port + probe), Command.READY_TIMEOUT);
            } catch (LabException e) {
                p.close();
                throw new LabException("--aot-cache: the training start of " + name + " failed: " + e.getMessage(), e);
            }
            if (!p.stopAndAwait(WRITE_PATIENCE) || !Files.isRegularFile(part)) {
                throw new LabException("--aot-cache: " + name + " wrote no cache at exit; last lines of " + p.log() + ":\n" + p.logTail(10));
            }
            Files.move(part, cache, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new LabException("--aot-cache: cannot make the cache of " + name + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Spring Boot's own extraction (jarmode tools): the app's jar and its lib/ folder, as a plain class path. */
    private static void extract(Jdk jdk, Path jar, Path dir) throws IOException {
        Path log = dir.resolve("extract.log");
        Process p = new ProcessBuilder(jdk.java().toString(), "-Djarmode=tools", "-jar", jar.toString(), "extract", "--destination", dir.toString(), "--force")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(EXTRACT_PATIENCE.toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new LabException("--aot-cache: cannot extract " + jar + " (" + log + "): " + String.join(" ", Files.readAllLines(log)).strip());
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new LabException("--aot-cache: interrupted while extracting " + jar, e);
        }
    }

    /** The caches of the jar's earlier builds; those of this build for other JDKs stay. */
    private static void pruneOlderBuilds(Path dir, String jarName, String build) throws IOException {
        Path parent = dir.getParent();
        if (!Files.isDirectory(parent)) {
            return;
        }
        try (Stream<Path> all = Files.list(parent)) {
            for (Path other : all.filter(p -> p.getFileName().toString().startsWith(jarName + "-")
                    && !p.getFileName().toString().startsWith(build + "-jdk")).toList()) {
                deleteTree(other);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
