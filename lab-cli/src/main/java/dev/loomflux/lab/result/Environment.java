package dev.loomflux.lab.result;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Where and with what a run was made, so two results can be compared knowingly (as JMH does). {@code cpuModel} is the CPU's
 * model name alone; {@code hardware} names the CPU in full (null in files from before it was recorded: docs/results-schema.md);
 * {@code profilerCosts} what the CPU sampler cost a probe on this host at the run's start (null when not checked: only async-profiler
 * is, docs/telemetry.md).
 */
public record Environment(String os, int cpus, String cpuModel, long memoryMb, JdkFacts jdk, Pinning pinning, String database,
                          Map<String, String> versions, String gitCommit, Boolean gitDirty, Hardware hardware, List<ProfilerCost> profilerCosts) {
    public Environment {
        profilerCosts = profilerCosts == null || profilerCosts.isEmpty() ? null : List.copyOf(profilerCosts);
    }

    public Environment(String os, int cpus, String cpuModel, long memoryMb, JdkFacts jdk, Pinning pinning, String database,
                       Map<String, String> versions, String gitCommit, Boolean gitDirty, Hardware hardware) {
        this(os, cpus, cpuModel, memoryMb, jdk, pinning, database, versions, gitCommit, gitDirty, hardware, null);
    }

    /** This environment with the profiler-cost check's figures (none: no check). */
    public Environment withProfilerCosts(List<ProfilerCost> costs) {
        return new Environment(os, cpus, cpuModel, memoryMb, jdk, pinning, database, versions, gitCommit, gitDirty, hardware, costs);
    }

    public record JdkFacts(String targets, String targetsHome, String lab) {
    }

    /** Where the target, the driver and the support processes were pinned, and where the driver really may run. */
    public record Pinning(boolean applied, String target, String driver, String support, String note, String driverActual) {
    }

    /** The pinned versions of the build (root pom properties), from the filtered loomflux-versions.properties. */
    public static Map<String, String> buildVersions() {
        Properties p = new Properties();
        try (InputStream in = Environment.class.getResourceAsStream("/loomflux-versions.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // Versions are informative; a run without them is still valid.
        }
        Map<String, String> m = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }
}
