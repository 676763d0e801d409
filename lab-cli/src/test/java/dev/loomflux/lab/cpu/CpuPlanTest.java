package dev.loomflux.lab.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuPlanTest {
    /** One core per CPU, one NUMA node. */
    private static CpuTopology flat(int cpus) {
        List<CpuTopology.Cpu> l = new ArrayList<>();
        for (int i = 0; i < cpus; i++) {
            l.add(new CpuTopology.Cpu(i, i, 0, 0));
        }
        return new CpuTopology(l);
    }

    private static CpuTopology recorded(String name) throws IOException {
        try (InputStream in = CpuPlanTest.class.getResourceAsStream("/topology/" + name)) {
            return CpuTopology.parseLscpu(new String(in.readAllBytes(), StandardCharsets.UTF_8), name);
        }
    }

    private static Map<String, List<Integer>> plan(List<Integer> target, List<Integer> driver, List<Integer> support) {
        return Map.of("target", target, "driver", driver, "support", support);
    }

    @Test
    void defaultsKeepTargetAndDriverApart() {
        assertEquals(plan(List.of(0), List.of(1), List.of(1)), CpuPlan.defaults(flat(2)));
        assertEquals(plan(List.of(0), List.of(1), List.of(2)), CpuPlan.defaults(flat(3)));
        // 7 cores after support: 4 for the target leave the driver 3 >= 4 x 0.69
        assertEquals(plan(List.of(0, 1, 2, 3), List.of(4, 5, 6), List.of(7)), CpuPlan.defaults(flat(8)));
        // 3 after support: a second target core would need 2 driver cores
        assertEquals(plan(List.of(0), List.of(1, 2), List.of(3)), CpuPlan.defaults(flat(4)));
    }

    @Test
    void thisMachineAsRecorded() throws IOException {
        CpuTopology t = recorded("2-cpus-kvm.lscpu");
        assertEquals("2 CPUs, 2 cores, 1 NUMA node", t.describe());
        assertEquals(plan(List.of(0), List.of(1), List.of(1)), CpuPlan.defaults(t));
    }

    @Test
    void smtSiblingsStayWithOneRole() throws IOException {
        // Siblings n and n + 4 (Intel numbering): the old plan ("first half to the target") gave the
        // target CPUs 0-3 and the driver 4-6, the other halves of the target's own cores.
        CpuTopology intel = recorded("8-cpus-smt.lscpu");
        assertEquals("8 CPUs, 4 cores, 1 NUMA node", intel.describe());
        assertEquals(plan(List.of(0, 4), List.of(1, 2, 5, 6), List.of(3, 7)), CpuPlan.defaults(intel));
        // Adjacent siblings (AMD numbering): the same plan in other numbers.
        assertEquals(plan(List.of(0, 1), List.of(2, 3, 4, 5), List.of(6, 7)), CpuPlan.defaults(recorded("8-cpus-smt-adjacent.lscpu")));
        assertNoCoreShared(intel, CpuPlan.defaults(intel));
    }

    @Test
    void aBigTwoSocketMachineKeepsTheTargetOnOneNumaNode() throws IOException {
        CpuTopology big = recorded("2x16-cores-smt-numa.lscpu");
        assertEquals("64 CPUs, 32 cores, 2 NUMA nodes", big.describe());
        Map<String, List<Integer>> p = CpuPlan.defaults(big);
        // support 32 / 8 = 4 cores; of the other 28, 16 for the target leave 12 >= 16 x 0.69 (17 would need 12 of 11);
        // 16 is all of node 0: cores 0-15 with their siblings 32-47.
        assertEquals(range(0, 16, 32, 48), p.get("target"));
        assertEquals(range(16, 28, 48, 60), p.get("driver"));
        assertEquals(range(28, 32, 60, 64), p.get("support"));
        assertNoCoreShared(big, p);
        assertEquals("16 cores", CpuPlan.cores(big, p.get("target")));
    }

    @Test
    void badTopologyLinesNameTheLine() {
        assertTrue(assertThrows(UsageException.class, () -> CpuTopology.parseLscpu("# CPU,Core,Socket,Node\n0,0,0,0\n1,x,0,0\n", "t.lscpu"))
                .getMessage().startsWith("t.lscpu: line 3: expected CPU,CORE,SOCKET,NODE"));
    }

    private static List<Integer> range(int from1, int to1, int from2, int to2) {
        List<Integer> l = new ArrayList<>();
        for (int i = from1; i < to1; i++) {
            l.add(i);
        }
        for (int i = from2; i < to2; i++) {
            l.add(i);
        }
        return l;
    }

    /** No physical core has CPUs in two roles. */
    private static void assertNoCoreShared(CpuTopology t, Map<String, List<Integer>> p) {
        for (CpuTopology.Core core : t.cores()) {
            long roles = p.values().stream().filter(cpus -> core.cpus().stream().anyMatch(cpus::contains)).count();
            assertEquals(1, roles, "core " + core + " in " + p);
        }
    }

    @Test
    void parsesTasksetLists() {
        assertEquals(List.of(0, 2, 3, 4), CpuPlan.parse("--target-cpus", "0,2-4", 8));
        assertTrue(assertThrows(UsageException.class, () -> CpuPlan.parse("--target-cpus", "9", 8)).getMessage()
                .startsWith("--target-cpus 9: CPUs must be within 0-7"));
        assertTrue(assertThrows(UsageException.class, () -> CpuPlan.parse("--driver-cpus", "a-b", 8)).getMessage()
                .startsWith("--driver-cpus a-b: expected CPU numbers"));
    }

    @Test
    void pinningIsAppliedOnThisMachineAndMovesProcesses() throws Exception {
        CpuPlan plan = CpuPlan.plan(true, Map.of());
        if (!plan.applied()) {
            // Only where taskset works (Linux with >= 2 CPUs); the note says why not.
            assertTrue(!plan.note().isEmpty());
            return;
        }
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            plan.move(sleeper.pid(), plan.target());
            assertEquals(CpuPlan.list(plan.target()), CpuPlan.affinityOf(sleeper.pid()));
        } finally {
            sleeper.destroyForcibly();
        }
    }
}
