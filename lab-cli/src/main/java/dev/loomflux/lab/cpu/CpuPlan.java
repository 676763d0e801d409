package dev.loomflux.lab.cpu;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.ShortCommand;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.sut.Placement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which CPUs the target, the load driver and the support processes (stub, database) run on.
 * Pinning keeps the driver from stealing the target's CPU, the flaw of every seed write-up. The
 * default plan works in physical cores, so that no two roles share one through SMT siblings
 * ({@link #defaults}); {@code --target-cpus} etc. override it CPU by CPU.
 */
public record CpuPlan(boolean applied, List<Integer> target, List<Integer> driver, List<Integer> support, String note) {
    /**
     * The driver's CPU time per request (Hyperfoil, measured here: 10-14 us) over the most requests a
     * target core served here (plaintext, ~30,000/s, rounded up to 40,000), at most 70% busy: the
     * driver needs 0.69 of a core per target core to never be the bottleneck.
     */
    static final double DRIVER_CORES_PER_TARGET_CORE = 40_000 * 12e-6 / 0.7;

    public CpuPlan {
        target = List.copyOf(target);
        driver = List.copyOf(driver);
        support = List.copyOf(support);
    }

    /** @param requested user overrides by role ("target", "driver", "support"); null values mean default */
    public static CpuPlan plan(boolean pin, Map<String, String> requested) {
        CpuTopology topology = CpuTopology.ofThisMachine(allowed(affinityOf(ProcessHandle.current().pid())));
        List<Integer> all = topology.cpus().stream().map(CpuTopology.Cpu::id).toList();
        int cpus = all.size();
        Map<String, List<Integer>> sets = defaults(topology);
        String how = topology.describe() + "; target " + cores(topology, sets.get("target")) + ", driver " + cores(topology, sets.get("driver"))
                + ", support " + cores(topology, sets.get("support"));
        for (Map.Entry<String, String> e : requested.entrySet()) {
            if (e.getValue() != null) {
                sets.put(e.getKey(), parse("--" + e.getKey() + "-cpus", e.getValue(), topology.maxId()));
                how = topology.describe() + "; CPUs as given";
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
        return new CpuPlan(true, sets.get("target"), sets.get("driver"), sets.get("support"), "pinned with taskset (" + how + ")");
    }

    /**
     * The default plan, in physical cores (all SMT siblings of a core go to one role):
     * <ul>
     * <li>1 core: everything on it (nothing can be kept apart);</li>
     * <li>2 cores: the target on the first, driver and support on the second;</li>
     * <li>3 cores: one each;</li>
     * <li>more: support gets an eighth (at least one), the target as many of the rest as leave the
     * driver {@link #DRIVER_CORES_PER_TARGET_CORE} per target core, but no more than the largest NUMA
     * node has, so that its memory stays local; the driver gets what is left.</li>
     * </ul>
     */
    static Map<String, List<Integer>> defaults(CpuTopology topology) {
        List<CpuTopology.Core> cores = topology.cores();
        int n = cores.size();
        Map<String, List<Integer>> m = new LinkedHashMap<>();
        if (n == 1) {
            List<Integer> all = cores.get(0).cpus();
            m.put("target", List.of(all.get(0)));
            m.put("driver", List.of(all.get(all.size() - 1)));
            m.put("support", List.of(all.get(all.size() - 1)));
            return m;
        }
        if (n <= 3) {
            m.put("target", cores.get(0).cpus());
            m.put("driver", cores.get(1).cpus());
            m.put("support", cores.get(n - 1).cpus());
            return m;
        }
        int support = Math.max(1, n / 8);
        int rest = n - support;
        int target = 1;
        while (target + 1 + (int) Math.ceil((target + 1) * DRIVER_CORES_PER_TARGET_CORE) <= rest) {
            target++;
        }
        Map<Integer, Long> perNode = new TreeMap<>();
        cores.forEach(c -> perNode.merge(c.node(), 1L, Long::sum));
        int largest = perNode.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        target = (int) Math.min(target, perNode.get(largest));
        // The target from the largest node's first cores; support from the last cores, the driver in between.
        List<CpuTopology.Core> targetCores = cores.stream().filter(c -> c.node() == largest).limit(target).toList();
        List<CpuTopology.Core> others = cores.stream().filter(c -> !targetCores.contains(c)).toList();
        m.put("target", cpusOf(targetCores));
        m.put("driver", cpusOf(others.subList(0, others.size() - support)));
        m.put("support", cpusOf(others.subList(others.size() - support, others.size())));
        return m;
    }

    private static List<Integer> cpusOf(List<CpuTopology.Core> cores) {
        return cores.stream().flatMap(c -> c.cpus().stream()).sorted().toList();
    }

    /** How many physical cores a CPU set touches: "2 cores". */
    static String cores(CpuTopology topology, List<Integer> cpus) {
        long n = topology.cores().stream().filter(c -> c.cpus().stream().anyMatch(cpus::contains)).count();
        return n + " core" + (n == 1 ? "" : "s");
    }

    /** The CPUs in a Cpus_allowed_list; null when unknown. */
    private static Set<Integer> allowed(String cpuList) {
        try {
            return new TreeSet<>(parse("Cpus_allowed_list", cpuList, Integer.MAX_VALUE));
        } catch (UsageException e) {
            return null;
        }
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
        return ShortCommand.succeeds("taskset", "-p", Long.toString(ProcessHandle.current().pid()));
    }

    public static String list(List<Integer> cpus) {
        return String.join(",", cpus.stream().map(String::valueOf).toArray(String[]::new));
    }

    public Placement targetPlacement() {
        return placement(target);
    }

    /**
     * For JVMs that start side by side before they move to the target CPUs: the target's and the
     * driver's CPUs (the driver idles meanwhile), sized as the target CPUs so that the JVM's pools
     * are those it will run with.
     */
    public Placement startPlacement() {
        return applied ? new Placement(List.of("taskset", "-c", list(startCpus())), target.size()) : Placement.ANYWHERE;
    }

    /** The target's and the driver's CPUs: where JVMs start, and where the paired design's compile stage runs. */
    public List<Integer> startCpus() {
        TreeSet<Integer> both = new TreeSet<>(target);
        both.addAll(driver);
        return List.copyOf(both);
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
        return applied && ShortCommand.succeeds("taskset", "-p", "-c", list(cpus), Long.toString(tid));
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
        return ShortCommand.succeeds("taskset", "-a", "-p", "-c", cpuList, Long.toString(pid))
                || (!Thread.currentThread().isInterrupted() && ShortCommand.succeeds("taskset", "-a", "-p", "-c", cpuList, Long.toString(pid)));
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
