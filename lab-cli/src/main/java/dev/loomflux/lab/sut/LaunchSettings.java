package dev.loomflux.lab.sut;

import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.cpuprofile.AsyncAgent;
import dev.loomflux.lab.cpuprofile.Profiler;
import java.nio.file.Path;
import java.util.List;

/**
 * What every target gets equally: the same JDK, heap and GC (chosen explicitly because the JVM's
 * ergonomic default switches to Serial GC on machines or CPU sets with fewer than 2 CPUs), and the
 * same JFR recording (default settings, about 1% overhead) that the lab dumps after each scenario;
 * and the same container-like limits (CPU quota, memory limit) when asked for.
 *
 * @param aotCache the built-in targets that start from a class cache made for their jar ({@link AotCache}): {@link #EVERY} for all;
 *                 empty for none
 * @param async    async-profiler, when it takes the CPU samples instead of JFR ({@code --cpu-profiler async}); null for JFR
 */
public record LaunchSettings(Jdk jdk, String host, String heap, ResourceLimits limits, java.util.Set<String> aotCache, AsyncAgent async) {
    /** {@link #aotCache} of every built-in target. */
    public static final java.util.Set<String> EVERY = java.util.Set.of("*");

    public static final String DEFAULT_HEAP = "512m";
    public static final String JFR_RECORDING = "loomflux";

    public LaunchSettings(Jdk jdk, String host, String heap) {
        this(jdk, host, heap, ResourceLimits.NONE, java.util.Set.of(), null);
    }

    public LaunchSettings {
        aotCache = java.util.Set.copyOf(aotCache);
    }

    /** Whether {@code target} starts from its jar's class cache. */
    public boolean aotCache(String target) {
        return aotCache.contains("*") || aotCache.contains(target);
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
        if (!aotCache.isEmpty()) {
            all.add("-XX:AOTCache=<module>/target/aot/<jar, JDK>/" + AotCache.FILE + " (from the extracted jar"
                    + (aotCache.contains("*") ? "" : "; only " + String.join(", ", new java.util.TreeSet<>(aotCache))) + ")");
        }
        return List.copyOf(all);
    }
}
