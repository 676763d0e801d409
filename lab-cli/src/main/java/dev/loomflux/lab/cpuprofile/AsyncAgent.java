package dev.loomflux.lab.cpuprofile;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.jdk.Jdk;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * async-profiler as the targets' sampler ({@code --cpu-profiler async}): its native library, which the Maven artifact
 * {@code tools.profiler:async-profiler} on the lab's class path carries for Linux x64 and arm64 and for macOS, extracted
 * into a cache under the system's temporary directory (one per version, never in the repository), loaded by every target
 * JVM at its start with {@code -agentpath} and recording to its own JFR file in the run's directory,
 * {@code async-profiler.<pid>.jfr}.
 *
 * <p>After a scenario the lab asks the agent to dump ({@code jcmd <pid> JVMTI.agent_load <library> dump,jfr}: the JVM does not
 * load a loaded library twice, it hands the agent the command). In JFR output a dump ends the file's current chunk and
 * starts the next in the same file, so the file always ends in a chunk still being written; the lab copies the finished
 * chunks alone to {@code <target>.<scenario>.async.jfr}, which {@code jdk.jfr.consumer} reads like any recording, with its
 * samples' times, so the paired design's blocks still select their own.
 *
 * @param mode    cpu or wall clock
 * @param library the extracted library
 * @param version the artifact's version, for the report
 */
public record AsyncAgent(Profiler mode, Path library, String version) {
    private static final String ARTIFACT = "/META-INF/maven/tools.profiler/async-profiler/pom.properties";
    private static final String LIBRARY = "libasyncProfiler.so";
    private static final long TIMEOUT_S = 60;

    /**
     * The library for this machine, extracted, and checked by loading it into the target JDK once ({@code java -version}),
     * so that a run that cannot profile as asked refuses before anything starts rather than after its targets' warmup.
     *
     * @throws UsageException one line, naming the flag and why: no library for this platform, or the JVM could not load it
     */
    public static AsyncAgent load(Profiler mode, Jdk jdk) {
        String flag = "--cpu-profiler " + mode.label();
        String version = artifactVersion();
        if (version == null) {
            throw new UsageException(flag + ": async-profiler is missing from the lab's class path (tools.profiler:async-profiler); rebuild with ./mvnw package");
        }
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        String platform = os.startsWith("mac") ? "macos" : os.startsWith("linux") ? "linux-" + switch (arch) {
            case "amd64", "x86_64" -> "x64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch;
        } : os;
        Path library = extract(platform + "/" + LIBRARY, version, flag);
        if (library == null) {
            throw new UsageException(flag + ": async-profiler " + version + " has no library for " + os + " " + arch);
        }
        AsyncAgent agent = new AsyncAgent(mode, library, version);
        agent.check(jdk, flag);
        return agent;
    }

    /**
     * The JVM option that starts sampling at the target's start, into {@code async-profiler.<pid>.jfr} in {@code dir}. In wall-clock
     * mode {@code nobatch} has every sample written as a {@code jdk.ExecutionSample}, as in cpu mode, instead of batched in
     * async-profiler's own event.
     */
    public String jvmFlag(Path dir) {
        return "-agentpath:" + library + "=start,event=" + (mode == Profiler.ASYNC_WALL ? "wall,nobatch" : "cpu") + ",interval=" + Profiler.INTERVAL_MS
                + "ms,jfr,file=" + dir.toAbsolutePath().resolve("async-profiler.%p.jfr");
    }

    /**
     * Dumps the agent's recording and copies its finished chunks to {@code file}.
     *
     * @param dir where the target's {@link #jvmFlag} put its recording
     * @return null when dumped, else why not (one line); never an exception, as a profile must never cost a measurement
     */
    public String dump(Jdk jdk, long pid, Path dir, Path file) {
        String why = jcmd(jdk, pid);
        if (why != null) {
            return why;
        }
        Path live = dir.resolve("async-profiler." + pid + ".jfr");
        try (FileChannel in = FileChannel.open(live);
             FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            long end = finishedChunks(in);
            if (end == 0) {
                return live.getFileName() + " has no finished chunk after the dump";
            }
            for (long at = 0; at < end; ) {
                at += in.transferTo(at, end - at, out);
            }
            return null;
        } catch (IOException e) {
            return "cannot copy " + live.getFileName() + ": " + e;
        }
    }

    /**
     * Where the finished chunks end. A JFR chunk starts with its header, {@code FLR\0}, two 16-bit version numbers, then its
     * size and the position of its constant pool, 64-bit each (jdk.jfr's ChunkHeader); async-profiler writes the chunk it is
     * still filling with no constant pool yet and a size past the file's end.
     */
    static long finishedChunks(FileChannel in) throws IOException {
        long at = 0;
        ByteBuffer header = ByteBuffer.allocate(24);
        while (true) {
            header.clear();
            if (in.read(header, at) < header.capacity() || header.getInt(0) != 0x464c5200) {
                return at;
            }
            long size = header.getLong(8);
            if (size <= 0 || header.getLong(16) == 0 || at + size > in.size()) {
                return at;
            }
            at += size;
        }
    }

    private String jcmd(Jdk jdk, long pid) {
        Path jcmd = jdk.home().resolve("bin").resolve("jcmd");
        if (!Files.isExecutable(jcmd)) {
            return "no jcmd in " + jdk.home() + " (a JRE?): no async-profiler dump";
        }
        return run(List.of(jcmd.toString(), Long.toString(pid), "JVMTI.agent_load", library.toString(), "dump,jfr"), "jcmd JVMTI.agent_load dump");
    }

    void check(Jdk jdk, String flag) {
        String why = run(List.of(jdk.java().toString(), "-agentpath:" + library + "=start,event=" + (mode == Profiler.ASYNC_WALL ? "wall" : "cpu")
                + ",interval=" + Profiler.INTERVAL_MS + "ms,file=/dev/null,collapsed", "-version"), "java -agentpath");
        if (why != null) {
            throw new UsageException(flag + ": " + jdk.home() + " cannot load " + library + ": " + why);
        }
    }

    /** @return null when the command exits 0, else why not, with the first of its output */
    private static String run(List<String> command, String what) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return what + " timed out after " + TIMEOUT_S + " s";
            }
            String text = new String(out, StandardCharsets.UTF_8);
            // jcmd exits 0 when the agent refused the command; the agent's "return code" says whether it did.
            boolean refused = text.contains("return code: ") && !text.contains("return code: 0");
            if (p.exitValue() == 0 && !refused) {
                return null;
            }
            text = text.strip().replace('\n', ' ');
            return what + " failed (exit " + p.exitValue() + "): " + (text.length() > 200 ? text.substring(0, 200) : text);
        } catch (IOException e) {
            return "cannot run " + what + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted: " + what;
        }
    }

    private static String artifactVersion() {
        try (InputStream in = AsyncAgent.class.getResourceAsStream(ARTIFACT)) {
            if (in == null) {
                return null;
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Once per version and platform: a second lab finds it there; written beside and moved, so no lab loads half a file.
     *
     * @return null when the artifact has no such library
     */
    private static Path extract(String resource, String version, String flag) {
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "loomflux-async-profiler-" + version, resource);
        try (InputStream in = AsyncAgent.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                return null;
            }
            if (Files.isRegularFile(target)) {
                return target;
            }
            Files.createDirectories(target.getParent());
            Path part = Files.createTempFile(target.getParent(), LIBRARY, ".part");
            Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new UsageException(flag + ": cannot extract " + resource + " to " + target + ": " + e.getMessage());
        }
    }
}
