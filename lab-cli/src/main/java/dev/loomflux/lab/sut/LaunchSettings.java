package dev.loomflux.lab.sut;

import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.profile.AsyncAgent;
import dev.loomflux.lab.profile.Profiler;
import java.nio.file.Path;
import java.util.List;

/**
 * What every target gets equally: the same JDK, heap and GC (chosen explicitly because the JVM's
 * ergonomic default switches to Serial GC on machines or CPU sets with fewer than 2 CPUs), and the
 * same JFR recording (default settings, about 1% overhead) that the lab dumps after each scenario;
 * and the same container-like limits (CPU quota, memory limit) when asked for.
 *
 * @param aotCache whether the built-in targets start from a class cache made for their jar ({@link AotCache})
 * @param async    async-profiler, when it takes the CPU samples instead of JFR ({@code --profiler async}); null for JFR
 */
public record LaunchSettings(Jdk jdk, String host, String heap, ResourceLimits limits, boolean aotCache, AsyncAgent async) {
    public static final String DEFAULT_HEAP = "512m";
    public static final String JFR_RECORDING = "loomflux";

    public LaunchSettings(Jdk jdk, String host, String heap) {
        this(jdk, host, heap, ResourceLimits.NONE, false, null);
    }

    /** Who takes the CPU samples. */
    public Profiler profiler() {
        return async == null ? Profiler.JFR : async.mode();
    }

    /**
     * With async-profiler JFR's own method sampling is off: the JVM summary needs none of its samples, and two samplers
     * would cost the target twice.
     */
    public List<String> jvmFlags() {
        return List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
                "-XX:StartFlightRecording=name=" + JFR_RECORDING + ",settings=default" + (async == null ? "" : ",method-profiling=off"));
    }

    /** What a target started now adds to {@link #jvmFlags}: async-profiler's agent, recording into {@code dir}. */
    public List<String> profilerFlags(Path dir) {
        return async == null ? List.of() : List.of(async.jvmFlag(dir));
    }

    /** The flags as a report states them: with the cache's, whose file differs per jar. */
    public List<String> describedFlags() {
        List<String> all = new java.util.ArrayList<>(jvmFlags());
        if (async != null) {
            all.add("-agentpath:<async-profiler " + async.version() + ">=start,event=" + (async.mode() == Profiler.ASYNC_WALL ? "wall" : "cpu")
                    + ",interval=" + Profiler.INTERVAL_MS + "ms,jfr");
        }
        if (aotCache) {
            all.add("-XX:AOTCache=<module>/target/aot/<jar, JDK>/" + AotCache.FILE + " (from the extracted jar)");
        }
        return List.copyOf(all);
    }
}
