package dev.loomflux.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuPlanTest {
    @Test
    void defaultsKeepTargetAndDriverApart() {
        assertEquals(Map.of("target", List.of(0), "driver", List.of(1), "support", List.of(1)), CpuPlan.defaults(2));
        assertEquals(Map.of("target", List.of(0), "driver", List.of(1), "support", List.of(2)), CpuPlan.defaults(3));
        assertEquals(Map.of("target", List.of(0, 1, 2, 3), "driver", List.of(4, 5, 6), "support", List.of(7)), CpuPlan.defaults(8));
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
