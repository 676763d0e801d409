package dev.loomflux.lab.sut;

import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.limits.ResourceLimits;
import java.util.List;

/**
 * What every target gets equally: the same JDK, heap and GC (chosen explicitly because the JVM's
 * ergonomic default switches to Serial GC on machines or CPU sets with fewer than 2 CPUs), and the
 * same JFR recording (default settings, about 1% overhead) that the lab dumps after each scenario;
 * and the same container-like limits (CPU quota, memory limit) when asked for.
 *
 * @param aotCache whether the built-in targets start from a class cache made for their jar ({@link AotCache})
 */
public record LaunchSettings(Jdk jdk, String host, String heap, ResourceLimits limits, boolean aotCache) {
    public static final String DEFAULT_HEAP = "512m";
    public static final String JFR_RECORDING = "loomflux";

    public LaunchSettings(Jdk jdk, String host, String heap) {
        this(jdk, host, heap, ResourceLimits.NONE, false);
    }

    public List<String> jvmFlags() {
        return List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
                "-XX:StartFlightRecording=name=" + JFR_RECORDING + ",settings=default");
    }

    /** The flags as a report states them: with the cache's, whose file differs per jar. */
    public List<String> describedFlags() {
        if (!aotCache) {
            return jvmFlags();
        }
        List<String> all = new java.util.ArrayList<>(jvmFlags());
        all.add("-XX:AOTCache=<module>/target/aot/<jar, JDK>/" + AotCache.FILE + " (from the extracted jar)");
        return List.copyOf(all);
    }
}
