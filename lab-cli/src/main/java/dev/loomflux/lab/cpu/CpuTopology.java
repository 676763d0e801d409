package dev.loomflux.lab.cpu;

import dev.loomflux.lab.UsageException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;

/**
 * The machine's CPUs as the lab plans with them: which logical CPUs share a physical core (SMT
 * siblings) and which NUMA node each is on. Read through OSHI on the running machine, or from
 * {@code lscpu -p=CPU,CORE,SOCKET,NODE} output, the format of the recorded test topologies.
 */
public record CpuTopology(List<Cpu> cpus) {
    /** One logical CPU; {@code core} is numbered within its {@code socket}. */
    public record Cpu(int id, int core, int socket, int node) {
    }

    /** One physical core: its logical CPUs, which nothing else should share. */
    public record Core(int node, List<Integer> cpus) {
        public Core {
            cpus = List.copyOf(cpus);
        }
    }

    public CpuTopology {
        cpus = cpus.stream().sorted(Comparator.comparingInt(Cpu::id)).toList();
    }

    /** This machine, limited to the CPUs this process may run on; one core per CPU when OSHI cannot tell. */
    public static CpuTopology ofThisMachine(Set<Integer> allowed) {
        List<Cpu> cpus = new ArrayList<>();
        try {
            for (CentralProcessor.LogicalProcessor p : new SystemInfo().getHardware().getProcessor().getLogicalProcessors()) {
                cpus.add(new Cpu(p.getProcessorNumber(), p.getPhysicalProcessorNumber(), p.getPhysicalPackageNumber(), Math.max(0, p.getNumaNode())));
            }
        } catch (RuntimeException | LinkageError e) {
            cpus.clear();
        }
        if (cpus.isEmpty()) {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                cpus.add(new Cpu(i, i, 0, 0));
            }
        }
        List<Cpu> usable = cpus.stream().filter(c -> allowed == null || allowed.contains(c.id())).toList();
        return new CpuTopology(usable.isEmpty() ? cpus : usable);
    }

    /** Parses {@code lscpu -p=CPU,CORE,SOCKET,NODE}; an empty NODE column (no NUMA) means node 0. */
    public static CpuTopology parseLscpu(String text, String source) {
        List<Cpu> cpus = new ArrayList<>();
        int n = 0;
        for (String line : text.split("\n")) {
            n++;
            String l = line.trim();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split(",", -1);
            try {
                cpus.add(new Cpu(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                        f.length < 4 || f[3].isEmpty() ? 0 : Integer.parseInt(f[3])));
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                throw new UsageException(source + ": line " + n + ": expected CPU,CORE,SOCKET,NODE numbers, got '" + l + "'");
            }
        }
        if (cpus.isEmpty()) {
            throw new UsageException(source + ": no CPUs");
        }
        return new CpuTopology(cpus);
    }

    /** Physical cores ordered by NUMA node, then by their first CPU. */
    public List<Core> cores() {
        Map<String, List<Cpu>> byCore = new LinkedHashMap<>();
        cpus.forEach(c -> byCore.computeIfAbsent(c.socket() + ":" + c.core(), k -> new ArrayList<>()).add(c));
        return byCore.values().stream()
                .map(l -> new Core(l.get(0).node(), l.stream().map(Cpu::id).toList()))
                .sorted(Comparator.comparingInt(Core::node).thenComparingInt(c -> c.cpus().get(0)))
                .toList();
    }

    /** Distinct NUMA nodes. */
    public int nodes() {
        return (int) cpus.stream().mapToInt(Cpu::node).distinct().count();
    }

    /** One past the highest CPU number, the bound for CPU lists a user gives. */
    public int maxId() {
        return cpus.get(cpus.size() - 1).id() + 1;
    }

    /** "8 CPUs, 4 cores, 1 NUMA node". */
    public String describe() {
        int nodes = nodes();
        return cpus.size() + " CPU" + (cpus.size() == 1 ? "" : "s") + ", " + cores().size() + " core" + (cores().size() == 1 ? "" : "s")
                + ", " + nodes + " NUMA node" + (nodes == 1 ? "" : "s");
    }
}
