package dev.loomflux.lab.sut;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The latency stub as a separate process, so its CPU is never counted as the target's. If it dies
 * during a run it is started again on the same port (the targets know that port), and
 * {@link #restarts()} tells a measurement that it lost its downstream.
 */
public final class Downstream implements AutoCloseable {
    private final LabProcesses owner;
    private final Home home;
    private final LaunchSettings settings;
    private final Placement placement;
    private final Path logDir;
    private final int port;
    private final Consumer<String> onRestart;
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile ManagedProcess process;

    private Downstream(LabProcesses owner, Home home, LaunchSettings settings, Placement placement, Path logDir, int port, Consumer<String> onRestart) {
        this.owner = owner;
        this.home = home;
        this.settings = settings;
        this.placement = placement;
        this.logDir = logDir;
        this.port = port;
        this.onRestart = onRestart;
    }

    /** @param owner stops it if the lab is stopped first */
    public static Downstream start(LabProcesses owner, Home home, LaunchSettings settings, Placement placement, Path logDir) {
        return start(owner, home, settings, placement, logDir, message -> System.err.println("lab: " + message));
    }

    /** @param onRestart told, in one line, when the stub died and was started again */
    public static Downstream start(LabProcesses owner, Home home, LaunchSettings settings, Placement placement, Path logDir, Consumer<String> onRestart) {
        Downstream d = new Downstream(owner, home, settings, placement, logDir, Ports.free(settings.host()), onRestart);
        d.launch();
        return d;
    }

    private void launch() {
        List<String> cmd = new ArrayList<>(placement.prefix());
        cmd.add(settings.jdk().java().toString());
        cmd.add("-Xmx256m");
        cmd.addAll(placement.jvmFlags());
        cmd.add("-jar");
        cmd.add(home.jar("downstream", "loomflux-downstream.jar").toString());
        cmd.add("--host");
        cmd.add(settings.host());
        cmd.add("--port");
        cmd.add(Integer.toString(port));
        ManagedProcess p = ManagedProcess.start(owner, "downstream", cmd, logDir.resolve("downstream.log"));
        Readiness.await(p, base().resolve("/delay?ms=0"), Command.READY_TIMEOUT);
        process = p;
        p.onExit().thenRun(() -> {
            if (p.stoppedByLab()) {
                return;
            }
            restarts.incrementAndGet();
            try {
                launch();
                onRestart.accept("downstream stub exited (" + p.exitDescription() + "); started again on port " + port);
            } catch (LabException e) {
                onRestart.accept("downstream stub exited (" + p.exitDescription() + ") and could not be started again: " + e.getMessage());
            }
        });
    }

    public long pid() {
        return process.pid();
    }

    public URI base() {
        return URI.create("http://" + settings.host() + ":" + port);
    }

    /** How often the stub died and was started again; a measurement during which this changed lost its downstream. */
    public int restarts() {
        return restarts.get();
    }

    @Override
    public void close() {
        process.close();
    }
}
