package dev.loomflux.lab.target;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.process.ManagedProcess;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The latency stub as a separate process, so its CPU is never counted as the target's. */
public final class Downstream implements AutoCloseable {
    private final ManagedProcess process;
    private final URI base;

    private Downstream(ManagedProcess process, URI base) {
        this.process = process;
        this.base = base;
    }

    public static Downstream start(Home home, LaunchSettings settings, Placement placement, Path logDir) {
        int port = Ports.free(settings.host());
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
        ManagedProcess p = ManagedProcess.start("downstream", cmd, logDir.resolve("downstream.log"));
        URI base = URI.create("http://" + settings.host() + ":" + port);
        Readiness.await(p, base.resolve("/delay?ms=0"));
        return new Downstream(p, base);
    }

    public long pid() {
        return process.pid();
    }

    public URI base() {
        return base;
    }

    @Override
    public void close() {
        process.close();
    }
}
