package dev.loomflux.lab.result;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.cpu.CpuPlan;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/** Where and with what a run was made, so two results can be compared knowingly (as JMH does). */
public record Environment(String os, int cpus, String cpuModel, long memoryMb, JdkFacts jdk, Pinning pinning, String database,
                          Map<String, String> versions, String gitCommit, Boolean gitDirty) {
    public record JdkFacts(String targets, String targetsHome, String lab) {
    }

    /** Where the target, the driver and the support processes were pinned, and where the driver really may run. */
    public record Pinning(boolean applied, String target, String driver, String support, String note, String driverActual) {
    }

    public static Environment describe(Home home, Jdk targetJdk, CpuPlan cpus, String database) {
        String status = git(home, "status", "--porcelain", "--untracked-files=no");
        return new Environment(System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                // The machine's CPUs: the lab itself is pinned by now, so availableProcessors() would say 1.
                new oshi.SystemInfo().getHardware().getProcessor().getLogicalProcessorCount(), readCpuModel(), readMemoryMb(),
                new JdkFacts(targetJdk.version(), targetJdk.home().toString(), System.getProperty("java.version")),
                new Pinning(cpus.applied(), CpuPlan.list(cpus.target()), CpuPlan.list(cpus.driver()), CpuPlan.list(cpus.support()), cpus.note(),
                        // Read back, not assumed: where the lab (the driver) may actually run right now.
                        CpuPlan.affinityOf(ProcessHandle.current().pid())),
                database, buildVersions(), git(home, "rev-parse", "HEAD"), status == null ? null : !status.isBlank());
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

    private static String readCpuModel() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // Not Linux: the model stays unknown.
        }
        return System.getProperty("os.arch");
    }

    private static long readMemoryMb() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getTotalMemorySize() / (1024 * 1024);
        }
        return -1;
    }

    private static String git(Home home, String... args) {
        try {
            String[] cmd = new String[args.length + 3];
            cmd[0] = "git";
            cmd[1] = "-C";
            cmd[2] = home.root().toString();
            System.arraycopy(args, 0, cmd, 3, args.length);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
