package dev.loomflux.lab.process;

import dev.loomflux.lab.LabException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Closes everything the lab started, newest first, when the lab exits for any reason:
 * normal end, Ctrl-C (SIGINT) or SIGTERM. No child may outlive the lab.
 */
public final class Reaper {
    private static final Deque<AutoCloseable> OPEN = new ArrayDeque<>();
    private static volatile boolean stopping;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Reaper::closeAll, "loomflux-reaper"));
    }

    private Reaper() {
    }

    /** True once the lab is shutting down; work in progress should stop rather than report failures. */
    public static boolean stopping() {
        return stopping;
    }

    /** Tracks a resource; during shutdown it is closed at once instead, since the hook may already be past it. */
    public static void register(AutoCloseable resource) {
        synchronized (Reaper.class) {
            if (!stopping) {
                OPEN.push(resource);
                return;
            }
        }
        closeQuietly(resource);
        throw new LabException("the lab is stopping");
    }

    public static synchronized void unregister(AutoCloseable resource) {
        OPEN.remove(resource);
    }

    static void closeAll() {
        stopping = true;
        while (true) {
            AutoCloseable next;
            synchronized (Reaper.class) {
                next = OPEN.poll();
            }
            if (next == null) {
                break;
            }
            closeQuietly(next);
        }
        // Whatever was mid-start when the signal came (a server, PostgreSQL's initdb) goes too;
        // library threads may still be spawning, hence a few sweeps.
        for (int sweep = 0; sweep < 5; sweep++) {
            List<ProcessHandle> rest = ProcessHandle.current().descendants().collect(Collectors.toList());
            if (rest.isEmpty()) {
                return;
            }
            rest.forEach(ProcessHandle::destroy);
            for (ProcessHandle h : rest) {
                try {
                    h.onExit().get(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    h.destroyForcibly();
                }
            }
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            System.err.println("lab: while stopping " + resource + ": " + e.getMessage());
        }
    }
}
