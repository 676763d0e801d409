package dev.loomflux.lab.run;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.target.Placement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Which CPUs the target, the load driver and the support processes (stub, database) run on.
 * Pinning keeps the driver from stealing the target's CPU, the flaw of every seed write-up.
 * Defaults: 2 CPUs -> target 0, driver 1, support 1; 3 -> 0 / 1 / 2; n >= 4 -> first half for the
 * target, the rest for the driver except the last CPU, which goes to support.
 */
public record CpuPlan(boolean applied, List<Integer> target, List<Integer> driver, List<Integer> support, String note) {
    public CpuPlan {
        target = List.copyOf(target);
        driver = List.copyOf(driver);
        support = List.copyOf(support);
    }

    /** @param requested user overrides by role ("target", "driver", "support"); null values mean default */
    public static CpuPlan plan(boolean pin, Map<String, String> requested) {
        int cpus = Runtime.getRuntime().availableProcessors();
        List<Integer> all = range(0, cpus);
        Map<String, List<Integer>> sets = defaults(cpus);
        for (Map.Entry<String, String> e : requested.entrySet()) {
            if (e.getValue() != null) {
                sets.put(e.getKey(), parse("--" + e.getKey() + "-cpus", e.getValue(), cpus));
            }
        }
        if (!pin) {
            return new CpuPlan(false, all, all, all, "pinning disabled (--no-pin): target, driver and support share all " + cpus + " CPUs");
        }
        if (cpus < 2) {
            return new CpuPlan(false, all, all, all, "only 1 CPU: target and driver share it; results mix their costs");
        }
        if (!tasksetWorks()) {
            return new CpuPlan(false, all, all, all, "taskset not available (" + System.getProperty("os.name")
                    + "): processes are not pinned; the driver competes with the target for CPU");
        }
        return new CpuPlan(true, sets.get("target"), sets.get("driver"), sets.get("support"), "pinned with taskset");
    }

    static Map<String, List<Integer>> defaults(int cpus) {
        Map<String, List<Integer>> m = new LinkedHashMap<>();
        if (cpus <= 2) {
            m.put("target", List.of(0));
            m.put("driver", List.of(cpus - 1));
            m.put("support", List.of(cpus - 1));
        } else if (cpus == 3) {
            m.put("target", List.of(0));
            m.put("driver", List.of(1));
            m.put("support", List.of(2));
        } else {
            m.put("target", range(0, cpus / 2));
            m.put("driver", range(cpus / 2, cpus - 1));
            m.put("support", List.of(cpus - 1));
        }
        return m;
    }

    /** Accepts taskset's list syntax: {@code 0}, {@code 0,2}, {@code 0-3}. */
    static List<Integer> parse(String flag, String text, int cpus) {
        TreeSet<Integer> out = new TreeSet<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            try {
                if (p.contains("-")) {
                    int from = Integer.parseInt(p.substring(0, p.indexOf('-')).trim());
                    int to = Integer.parseInt(p.substring(p.indexOf('-') + 1).trim());
                    if (from > to) {
                        throw new NumberFormatException();
                    }
                    out.addAll(range(from, to + 1));
                } else {
                    out.add(Integer.parseInt(p));
                }
            } catch (NumberFormatException e) {
                throw new UsageException(flag + " " + text + ": expected CPU numbers such as 0, 0,2 or 0-3");
            }
        }
        if (out.isEmpty() || out.first() < 0 || out.last() >= cpus) {
            throw new UsageException(flag + " " + text + ": CPUs must be within 0-" + (cpus - 1) + " on this machine");
        }
        return new ArrayList<>(out);
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> l = new ArrayList<>();
        for (int i = from; i < to; i++) {
            l.add(i);
        }
        return l;
    }

    private static boolean tasksetWorks() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return false;
        }
        return succeeds("taskset", "-p", Long.toString(ProcessHandle.current().pid()));
    }

    /** Runs a short command; false when it cannot start, fails or hangs. */
    private static boolean succeeds(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public static String list(List<Integer> cpus) {
        return String.join(",", cpus.stream().map(String::valueOf).toArray(String[]::new));
    }

    public Placement targetPlacement() {
        return placement(target);
    }

    public Placement supportPlacement() {
        return placement(support);
    }

    /** For an external load generator (wrk) that must run where the lab's own driver runs. */
    public Placement driverPlacement() {
        return placement(driver);
    }

    private Placement placement(List<Integer> cpus) {
        return applied ? new Placement(List.of("taskset", "-c", list(cpus)), cpus.size()) : Placement.ANYWHERE;
    }

    /** Moves a running process, all its threads, onto a CPU set; threads it creates later inherit it. */
    public void move(long pid, List<Integer> cpus) {
        if (applied && !taskset(pid, list(cpus)) && !list(cpus).equals(affinityOf(pid))) {
            throw new LabException("taskset could not pin pid " + pid + " to CPUs " + list(cpus));
        }
    }

    /** Moves one thread of this JVM (Linux thread id) onto a CPU set; false when it could not. */
    public boolean moveThread(long tid, List<Integer> cpus) {
        return applied && succeeds("taskset", "-p", "-c", list(cpus), Long.toString(tid));
    }

    /** Best effort: moves a process back to an affinity read earlier with {@link #affinityOf}. */
    public void restore(long pid, String cpuList) {
        if (applied && !"unknown".equals(cpuList)) {
            taskset(pid, cpuList);
        }
    }

    /**
     * {@code taskset -a} walks the process's threads; one that exits meanwhile makes it fail, so it
     * is tried twice and the caller checks the main thread's affinity.
     */
    private static boolean taskset(long pid, String cpuList) {
        return succeeds("taskset", "-a", "-p", "-c", cpuList, Long.toString(pid))
                || (!Thread.currentThread().isInterrupted() && succeeds("taskset", "-a", "-p", "-c", cpuList, Long.toString(pid)));
    }

    /** Where a process may actually run, read back from /proc as evidence for the results. */
    public static String affinityOf(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
        return "unknown";
    }
}
