package dev.loomflux.lab.process;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Closes everything the lab started, newest first, when the lab exits for any reason:
 * normal end, Ctrl-C (SIGINT) or SIGTERM. No child may outlive the lab.
 */
public final class Reaper {
    private static final Deque<AutoCloseable> OPEN = new ArrayDeque<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Reaper::closeAll, "loomflux-reaper"));
    }

    private Reaper() {
    }

    public static synchronized void register(AutoCloseable resource) {
        OPEN.push(resource);
    }

    public static synchronized void unregister(AutoCloseable resource) {
        OPEN.remove(resource);
    }

    static void closeAll() {
        while (true) {
            AutoCloseable next;
            synchronized (Reaper.class) {
                next = OPEN.poll();
            }
            if (next == null) {
                return;
            }
            try {
                next.close();
            } catch (Exception e) {
                System.err.println("lab: while stopping " + next + ": " + e.getMessage());
            }
        }
    }
}
