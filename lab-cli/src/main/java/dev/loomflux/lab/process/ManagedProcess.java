package dev.loomflux.lab.process;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.ShortCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A child process whose output goes to a log file (appended: a target restarted for each repeat
 * keeps one log, of which each process reads back only its own lines) and which is stopped with its descendants.
 */
public final class ManagedProcess implements AutoCloseable {
    private static final long GRACE_MS = 10_000;
    /** On Ctrl-C the whole lab must be gone within 3 s: a server that is still draining its requests is killed. */
    private static final long STOPPING_GRACE_MS = 1_500;
    private static final Pattern JVM_LOG_LINE = Pattern.compile("\\[\\d+\\.\\d+s\\]\\[\\w+\\]");

    /** util-linux's setpriv with --pdeathsig (2.33+); where it is missing, the run's guard stops the children instead. */
    private static final boolean PDEATHSIG = pdeathsigWorks();

    private final LabProcesses owner;
    private final String name;
    private final Process process;
    private final Path log;
    /** Where its own output begins in the log: what earlier processes of the same log wrote is not its. */
    private final long logFrom;
    private final long startedNanos;
    private volatile boolean stoppedByLab;

    private ManagedProcess(LabProcesses owner, String name, Process process, Path log, long logFrom, long startedNanos) {
        this.owner = owner;
        this.name = name;
        this.process = process;
        this.log = log;
        this.logFrom = logFrom;
        this.startedNanos = startedNanos;
    }

    /** @param owner stops it if the lab is stopped first, and lists it in the run's record */
    public static ManagedProcess start(LabProcesses owner, String name, List<String> command, Path log) {
        return start(owner, name, command, Map.of(), log);
    }

    public static ManagedProcess start(LabProcesses owner, String name, List<String> command, Map<String, String> env, Path log) {
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            ProcessBuilder pb = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
            pb.environment().putAll(env);
            long from = Files.exists(log) ? Files.size(log) : 0;
            long started = System.nanoTime();
            ManagedProcess p = new ManagedProcess(owner, name, launch(owner, pb), log, from, started);
            owner.register(p);
            owner.started(name, p.pid());
            return p;
        } catch (IOException e) {
            throw new LabException("cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    /**
     * Starts it under {@code setpriv --pdeathsig KILL} where util-linux has it, so the kernel kills it
     * when the lab dies, even by SIGKILL. The kernel means the parent thread, not process: a child
     * started from a pool thread that retires would be killed with it, so every start happens on
     * the owner's one thread ({@link LabProcesses#launch}), which lives as long as the lab.
     */
    private static Process launch(LabProcesses owner, ProcessBuilder pb) throws IOException {
        if (PDEATHSIG) {
            List<String> cmd = new ArrayList<>(List.of("setpriv", "--pdeathsig", "KILL", "--"));
            cmd.addAll(pb.command());
            pb.command(cmd);
        }
        return owner.launch(pb);
    }

    private static boolean pdeathsigWorks() {
        return ShortCommand.succeeds("setpriv", "--pdeathsig", "KILL", "--", "true");
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long startedNanos() {
        return startedNanos;
    }

    public Path log() {
        return log;
    }

    /**
     * The last lines of the log, for error messages about a process that failed. The JVM's own
     * start-up lines ("[1.061s][info][jfr,startup] ...") are left out: a target killed after it
     * started would otherwise quote them instead of its application's last words.
     */
    public String logTail(int lines) {
        try {
            List<String> all = ownLines().stream().filter(line -> !JVM_LOG_LINE.matcher(line).lookingAt()).toList();
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Its own lines of the log, oldest first; empty when it cannot be read. */
    public List<String> logLines() {
        try {
            return ownLines();
        } catch (IOException e) {
            return List.of();
        }
    }

    private List<String> ownLines() throws IOException {
        byte[] all = Files.readAllBytes(log);
        int from = (int) Math.min(all.length, logFrom);
        return new String(all, from, all.length - from, StandardCharsets.UTF_8).lines().toList();
    }

    public int exitValue() {
        return process.exitValue();
    }

    /** "code 1", or "code 137: killed by SIGKILL" when a signal ended it (exit code 128 + signal number). */
    public String exitDescription() {
        int code = process.exitValue();
        String signal = switch (code - 128) {
            case 9 -> "SIGKILL (out of memory killer, or kill -9)";
            case 15 -> "SIGTERM";
            case 2 -> "SIGINT";
            case 6 -> "SIGABRT (the JVM crashed: look for hs_err_pid*.log)";
            case 11 -> "SIGSEGV";
            default -> null;
        };
        return "code " + code + (signal == null ? "" : ": killed by " + signal);
    }

    /** Completes when the process has exited, for whatever reason; {@link #stoppedByLab()} tells which. */
    public CompletableFuture<Process> onExit() {
        return process.onExit();
    }

    /** True once the lab began to stop it (close, Ctrl-C): its exit is then no fault. */
    public boolean stoppedByLab() {
        return stoppedByLab;
    }

    /**
     * SIGTERM to the process alone, waiting up to {@code patience} for it to exit on its own (a JVM writing
     * its AOT cache at exit runs a child JVM to assemble it, which must not be stopped with it), then
     * {@link #close()} for whatever is left.
     *
     * @return whether it exited within the patience
     */
    public boolean stopAndAwait(java.time.Duration patience) {
        process.toHandle().destroy();
        try {
            return process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            close();
        }
    }

    /** SIGTERM to the process and its descendants, then SIGKILL to whatever is left after the grace time. */
    @Override
    public void close() {
        stoppedByLab = true;
        owner.unregister(this);
        List<ProcessHandle> tree = new ArrayList<>();
        process.descendants().forEach(tree::add);
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.currentTimeMillis() + (owner.stopping() ? STOPPING_GRACE_MS : GRACE_MS);
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
