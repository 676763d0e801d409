package dev.loomflux.lab.process;

import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What one lab owns while it runs: everything it started, closed newest first when the lab exits for
 * any reason (normal end, Ctrl-C (SIGINT) or SIGTERM), so that no child outlives it; the machine it
 * holds ({@link MachineLock}); the record of the run it is in ({@link RunProcesses}); and the thread
 * that starts its children. The entry point makes one and hands it down; a test makes its own.
 * Until it is closed, a JVM shutdown hook stops what it holds.
 */
public final class LabProcesses implements AutoCloseable {
    private final Deque<AutoCloseable> open = new ArrayDeque<>();
    private final Thread reaper = new Thread(this::stopAll, "loomflux-reaper");
    private volatile boolean stopping;
    private volatile MachineLock machine;
    private volatile RunProcesses run;
    /** Made at the first start; guarded by {@code open}, as the rest. */
    private ExecutorService launcher;

    public LabProcesses() {
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /** True once the lab is shutting down; work in progress should stop rather than report failures. */
    public boolean stopping() {
        return stopping;
    }

    /** Tracks a resource; during shutdown it is closed at once instead, since the hook may already be past it. */
    public void register(AutoCloseable resource) {
        synchronized (open) {
            if (!stopping) {
                open.push(resource);
                return;
            }
        }
        closeQuietly(resource);
        throw new LabException("the lab is stopping");
    }

    public void unregister(AutoCloseable resource) {
        synchronized (open) {
            open.remove(resource);
        }
    }

    /**
     * Takes the machine for {@code what} (e.g. "./lab run"), waiting for the lab that holds it unless {@code wait} is false.
     *
     * @param say told, in one line, whom this lab waits for
     * @throws dev.loomflux.lab.UsageException when another lab holds the machine and {@code wait} is false
     */
    public MachineLock takeMachine(String what, boolean wait, Consumer<String> say) {
        MachineLock taken = MachineLock.acquire(what, wait, say);
        machine = taken;
        return taken;
    }

    /** Says what holds the machine now that it is known, e.g. the run id. */
    public void describeMachine(String what) {
        MachineLock taken = machine;
        if (taken != null) {
            taken.describe(what);
        }
    }

    /** Starts the record of a run in {@code runDir}: the processes started until it is closed are listed there. */
    public RunProcesses openRun(Path runDir) {
        RunProcesses record = RunProcesses.open(runDir, this);
        register(record); // registered first, closed last: after everything it lists
        run = record;
        return record;
    }

    /** Adds a process the lab started to the open run's record (none outside a run, e.g. verify). */
    public void started(String name, long pid) {
        RunProcesses record = run;
        if (record != null) {
            record.add(name, pid);
        }
    }

    void ended(RunProcesses record) {
        unregister(record);
        synchronized (open) {
            if (run == record) {
                run = null;
            }
        }
    }

    /** Starts the process on this lab's one launcher thread, which lives until the lab is closed (why one: ManagedProcess#launch). */
    Process launch(ProcessBuilder pb) throws IOException {
        ExecutorService thread;
        synchronized (open) {
            if (launcher == null) {
                launcher = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "loomflux-launcher");
                    t.setDaemon(true);
                    return t;
                });
            }
            thread = launcher;
        }
        try {
            return thread.submit(pb::start).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + pb.command().get(0), e);
        }
    }

    /**
     * For a lab that ends before its JVM (a test's): closes what is still open, newest first, and lets
     * the JVM's exit be. During the JVM's shutdown the hook does it instead.
     */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException e) {
            return; // the JVM is shutting down: the hook closes everything
        }
        closeOpen();
        synchronized (open) {
            if (launcher != null) {
                launcher.shutdown();
            }
        }
    }

    private void stopAll() {
        stopping = true;
        closeOpen();
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

    private void closeOpen() {
        while (true) {
            AutoCloseable next;
            synchronized (open) {
                next = open.poll();
            }
            if (next == null) {
                break;
            }
            closeQuietly(next);
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
