package dev.loomflux.lab.process;

import dev.loomflux.lab.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The open-file limit a run needs against the one it has. Every user is a connection, in the lab (the
 * load driver runs in its JVM) and in the target, and targets inherit the lab's limit. At 10,000 users
 * mvc-vt died with "Too many open files" at 20,000 (docs/reliability.md): a limit, not the model, ended it.
 */
public final class OpenFiles {
    /**
     * The lab's own files beside the connections (jars, logs, its event loops, the database's sockets): 93 measured in
     * a paired run of two JVMs at 50 users (193 open in all), three times that to spare.
     */
    static final long SPARE = 300;

    private OpenFiles() {
    }

    /**
     * What is wrong with running {@code users} users against {@code jvmsAtOnce} target JVMs whose connections stay
     * open together, under a limit of {@code limit} open files; null when it fits.
     */
    static String problem(int users, int jvmsAtOnce, long limit) {
        long needed = needed(users, jvmsAtOnce);
        if (needed <= limit) {
            return null;
        }
        return String.format("--users %d: the load driver holds %,d connections at once (%,d users x %d target JVM%s%s) and needs about %,d open "
                        + "files, but this process may open %,d (ulimit -n); raise the limit in the shell that runs the lab (ulimit -n %d; "
                        + "./lab raises it to the hard limit itself) or use fewer --users, --targets or --sets",
                users, (long) users * jvmsAtOnce, users, jvmsAtOnce, jvmsAtOnce == 1 ? "" : "s",
                jvmsAtOnce == 1 ? "" : ", whose connections stay open across the rounds", needed, limit, needed);
    }

    /** Open files a run of {@code users} users needs against {@code jvmsAtOnce} target JVMs whose connections stay open together. */
    public static long needed(int users, int jvmsAtOnce) {
        return (long) users * jvmsAtOnce + SPARE;
    }

    /**
     * The most connections each of {@code jvmsAtOnce} target JVMs may hold at once under this process's limit; Long.MAX_VALUE where
     * the limit cannot be read.
     */
    public static long perJvm(int jvmsAtOnce) {
        OptionalLong limit = limit(Path.of("/proc/self/limits"));
        return limit.isPresent() ? Math.max(0, (limit.getAsLong() - SPARE) / jvmsAtOnce) : Long.MAX_VALUE;
    }

    /** Throws a one-line error when the run cannot hold its connections; a no-op where the limit cannot be read. */
    public static void require(int users, int jvmsAtOnce) {
        OptionalLong limit = limit(Path.of("/proc/self/limits"));
        if (limit.isPresent()) {
            String wrong = problem(users, jvmsAtOnce, limit.getAsLong());
            if (wrong != null) {
                throw new UsageException(wrong);
            }
        }
    }

    /** The soft limit from a /proc/PID/limits file; empty when unlimited or unreadable (not Linux). */
    static OptionalLong limit(Path limits) {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(soft));
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or a format this reader does not know: the run goes on, and a target that runs out says so when it dies.
        }
        return OptionalLong.empty();
    }
}
