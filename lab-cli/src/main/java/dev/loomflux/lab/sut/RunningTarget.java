package dev.loomflux.lab.sut;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** One target process, started and ready to serve. */
public final class RunningTarget implements AutoCloseable {
    private final TargetSpec spec;
    private final ManagedProcess process;
    private final URI base;
    private final long startupMillis;
    private final Cgroup cgroup;
    private final double cpus;
    private final String heap;

    private RunningTarget(TargetSpec spec, ManagedProcess process, URI base, long startupMillis, Cgroup cgroup, double cpus, String heap) {
        this.cpus = cpus;
        this.heap = heap;
        this.spec = spec;
        this.process = process;
        this.base = base;
        this.startupMillis = startupMillis;
        this.cgroup = cgroup;
    }

    /**
     * @param owner stops it (and its cgroup) if the lab is stopped first
     * @param db    null when no scenario needs the database; /items then answers 503
     */
    public static RunningTarget start(LabProcesses owner, Home home, TargetSpec spec, LaunchSettings settings, Placement placement,
                                      URI downstream, Database db, Path logDir) {
        return start(owner, home, spec, settings, placement, downstream, db, logDir.resolve(spec.name() + ".log"), p -> { });
    }

    /**
     * @param log      its output, appended; the profiler's files go beside it
     * @param launched told as soon as the process exists, before it is ready (to sample its startup)
     */
    public static RunningTarget start(LabProcesses owner, Home home, TargetSpec spec, LaunchSettings settings, Placement placement,
                                      URI downstream, Database db, Path log, Consumer<ManagedProcess> launched) {
        Path logDir = log.toAbsolutePath().getParent();
        Command own = spec.command();
        int port = own != null && own.port() > 0 ? own.port() : Ports.free(settings.host());
        if (own != null && own.port() > 0) {
            Ports.requireFree(settings.host(), port, spec.name());
        }
        ResourceLimits limits = spec.limits().over(settings.limits());
        // Limits where the machine allows them; elsewhere the run goes on and results.json says so (Runner).
        Cgroup cgroup = limits.any() && Cgroup.unsupported().isEmpty() ? Cgroup.create(owner, spec.name(), limits) : null;
        List<String> jvmFlags = new ArrayList<>(settings.jvmFlags());
        // As a container runtime would: the JVM sizes its pools for the quota rounded up, within its CPU set.
        int pinned = placement.cpus() > 0 ? placement.cpus() : Runtime.getRuntime().availableProcessors();
        jvmFlags.addAll(new Placement(placement.prefix(), cgroup == null ? placement.cpus() : limits.visibleProcessors(pinned)).jvmFlags());
        jvmFlags.addAll(spec.jvmArgs());
        jvmFlags.addAll(settings.profilerFlags(logDir));
        List<String> cmd = new ArrayList<>(placement.prefix());
        Map<String, String> env = new LinkedHashMap<>();
        if (own != null) {
            cmd.addAll(own.with(Map.of("port", Integer.toString(port), "host", settings.host(), "java", settings.jdk().java().toString(), "home", home.root().toString())).argv());
            // Any JVM the command starts picks these up, so a Java program gets the same heap, GC, JFR and CPU count.
            env.put("JAVA_TOOL_OPTIONS", String.join(" ", jvmFlags));
        } else {
            cmd.add(settings.jdk().java().toString());
            cmd.addAll(jvmFlags);
            Path jar = spec.app().jar(home);
            if (settings.aotCache(spec.name())) {
                AotCache.Launch cached = AotCache.of(owner, settings.jdk(), settings.host(), jar, settings.jvmFlags(),
                        p -> List.of("--server.address=" + settings.host(), "--server.port=" + p), "/plaintext");
                cmd.addAll(cached.flags());
                jar = cached.jar();
            }
            cmd.add("-jar");
            cmd.add(jar.toString());
            for (Map.Entry<String, String> e : properties(spec, settings, port, downstream, db).entrySet()) {
                cmd.add("--" + e.getKey() + "=" + e.getValue());
            }
            if (db != null) {
                // The password travels in the environment (Spring binds LOOMFLUX_DB_PASSWORD), not in the visible argv.
                env.put("LOOMFLUX_DB_PASSWORD", db.password());
            }
        }
        if (cgroup != null) {
            cmd = cgroup.wrap(cmd);
        }
        ManagedProcess p;
        try {
            p = ManagedProcess.start(owner, spec.name(), cmd, env, log);
        } catch (RuntimeException e) {
            closeQuietly(cgroup);
            throw e;
        }
        launched.accept(p);
        URI base = URI.create("http://" + settings.host() + ":" + port);
        try {
            long startup = Readiness.await(p, base.resolve(own != null ? own.ready() : "/plaintext"), own != null ? own.readyTimeout() : Command.READY_TIMEOUT);
            return new RunningTarget(spec, p, base, startup, cgroup, cgroup != null && limits.cpus() > 0 ? Math.min(pinned, limits.cpus()) : pinned,
                    heapOf(spec, settings));
        } catch (RuntimeException e) {
            p.close();
            Optional<String> oom = cgroup == null ? Optional.empty() : cgroup.oomCause();
            closeQuietly(cgroup);
            if (oom.isPresent()) {
                throw new LabException(spec.name() + " was " + oom.get() + " while starting (the kernel's OOM killer); " + e.getMessage(), e);
            }
            Optional<String> cause = ExitCause.of(p.logLines(), Optional.empty(), heapOf(spec, settings));
            if (cause.isPresent()) {
                throw new LabException(cause.get() + ": " + e.getMessage(), e);
            }
            throw e;
        }
    }

    /** Why the JVM did not use its --aot-cache, from the errors it logs at start ("Unable to map shared spaces"). */
    public Optional<String> aotCacheProblem() {
        List<String> errors = process.logLines().stream().filter(l -> l.contains("][error][aot]") || l.contains("][error][cds]"))
                .map(l -> l.replaceFirst("^\\[[^]]*]\\[error]\\[(aot|cds)] ", "")).toList();
        return errors.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", errors));
    }

    /** The heap it runs with: the lab's, unless the target's own JVM arguments set another. */
    private static String heapOf(TargetSpec spec, LaunchSettings settings) {
        return spec.jvmArgs().stream().filter(a -> a.startsWith("-Xmx")).reduce((a, b) -> b).map(a -> a.substring(4)).orElse(settings.heap());
    }

    /** Why it exited, when its log or its cgroup tells: "out of heap (heap 512m): java.lang.OutOfMemoryError: Java heap space". */
    public Optional<String> exitCause() {
        return ExitCause.of(process.logLines(), cgroup == null ? Optional.empty() : cgroup.oomCause(), heap);
    }

    /** "exited (code 3)", led by the cause when known: for the console and a failed result's first line. */
    public String exitHeadline() {
        return exitCause().map(c -> c + "; ").orElse("") + "exited (" + process.exitDescription() + ")";
    }

    private static void closeQuietly(Cgroup cgroup) {
        if (cgroup != null) {
            cgroup.close();
        }
    }

    /** Lab-controlled settings first; the target's own declared properties override them. */
    private static Map<String, String> properties(TargetSpec spec, LaunchSettings settings, int port, URI downstream, Database db) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("server.address", settings.host());
        props.put("server.port", Integer.toString(port));
        props.put("loomflux.target-name", spec.name());
        props.put("loomflux.downstream.url", downstream.toString());
        if (db != null) {
            props.put("loomflux.db.jdbc-url", db.jdbcUrl());
            props.put("loomflux.db.r2dbc-url", db.r2dbcUrl());
            props.put("loomflux.db.username", db.username());
            // Its own copy of table item, made afresh as it starts, so that no target reads another's writes.
            props.put("loomflux.db.schema", db.resetCopy(spec.name()));
        }
        props.putAll(spec.properties());
        return props;
    }

    public TargetSpec spec() {
        return spec;
    }

    public URI base() {
        return base;
    }

    public long startupMillis() {
        return startupMillis;
    }

    public ManagedProcess process() {
        return process;
    }

    /** The target's cgroup when limits apply, else null. */
    /** The CPUs the target can use: its pinned ones, or its quota when that is less (100% = one of them busy). */
    public double cpus() {
        return cpus;
    }

    public Cgroup cgroup() {
        return cgroup;
    }

    @Override
    public void close() {
        process.close();
        closeQuietly(cgroup);
    }
}
