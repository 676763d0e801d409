package dev.loomflux.lab.sut;

import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.limits.ResourceLimits;
import java.util.List;

/**
 * What every target gets equally: the same JDK, heap and GC (chosen explicitly because the JVM's
 * ergonomic default switches to Serial GC on machines or CPU sets with fewer than 2 CPUs), and the
 * same JFR recording (default settings, about 1% overhead) that the lab dumps after each scenario;
 * and the same container-like limits (CPU quota, memory limit) when asked for.
 */
public record LaunchSettings(Jdk jdk, String host, String heap, ResourceLimits limits) {
    public static final String DEFAULT_HEAP = "512m";
    public static final String JFR_RECORDING = "loomflux";

    public LaunchSettings(Jdk jdk, String host, String heap) {
        this(jdk, host, heap, ResourceLimits.NONE);
    }

    public List<String> jvmFlags() {
        return List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
                "-XX:StartFlightRecording=name=" + JFR_RECORDING + ",settings=default");
    }
}
