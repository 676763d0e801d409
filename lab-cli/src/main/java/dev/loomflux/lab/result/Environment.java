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
public final class Environment {
    private Environment() {
    }

    public static Map<String, Object> describe(Home home, Jdk targetJdk, CpuPlan cpus, String database) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        // The machine's CPUs: the lab itself is pinned by now, so availableProcessors() would say 1.
        m.put("cpus", new oshi.SystemInfo().getHardware().getProcessor().getLogicalProcessorCount());
        m.put("cpu_model", cpuModel());
        m.put("memory_mb", memoryMb());
        Map<String, Object> jdk = new LinkedHashMap<>();
        jdk.put("targets", targetJdk.version());
        jdk.put("targets_home", targetJdk.home().toString());
        jdk.put("lab", System.getProperty("java.version"));
        m.put("jdk", jdk);
        Map<String, Object> pin = new LinkedHashMap<>();
        pin.put("applied", cpus.applied());
        pin.put("target", CpuPlan.list(cpus.target()));
        pin.put("driver", CpuPlan.list(cpus.driver()));
        pin.put("support", CpuPlan.list(cpus.support()));
        pin.put("note", cpus.note());
        // Read back, not assumed: where the lab (the driver) may actually run right now.
        pin.put("driver_actual", CpuPlan.affinityOf(ProcessHandle.current().pid()));
        m.put("pinning", pin);
        m.put("database", database);
        m.put("versions", versions());
        m.put("git_commit", git(home, "rev-parse", "HEAD"));
        String status = git(home, "status", "--porcelain", "--untracked-files=no");
        m.put("git_dirty", status == null ? null : !status.isBlank());
        return m;
    }

    /** The pinned versions of the build (root pom properties), from the filtered loomflux-versions.properties. */
    public static Map<String, String> versions() {
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

    private static String cpuModel() {
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

    private static long memoryMb() {
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
