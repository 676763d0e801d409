package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.AgentCpuUse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AgentCpuTest {
    /** A report of agent {@code a} at second {@code s} of its clock, with {@code cpuMs} of CPU so far. */
    private static String report(String a, int s, long cpuMs) {
        return "thread=" + a + "-clock+1-1&cpus=2&at_us=" + s * 1_000_000L + "&cpu_ns=" + cpuMs * 1_000_000L;
    }

    @Test
    void theWindowTakesTheSecondsThatEndInItOnTheLabsClock() {
        AgentCpu cpu = new AgentCpu();
        // Agent A: 500 ms of CPU per second for 4 s, then one second at 1,500 ms (both cores busy 75%).
        long[] cumulative = {0, 500, 1000, 1500, 2000, 3500};
        for (int s = 0; s < cumulative.length; s++) {
            assertTrue(cpu.add(report("10.0.0.5:1099", 10 + s, cumulative[s])));
        }
        cpu.add(report("10.0.0.6:1099", 10, 0));
        cpu.add(report("10.0.0.6:1099", 11, 2000));
        // Its clock runs 2 s ahead of the lab's: the lab's 9 s..12 s are its 11 s..14 s, the three seconds at 50%.
        AgentCpuUse a = cpu.over("10.0.0.5:1099", 9_000, 12_000, 2_000);
        assertEquals(2, a.cpus());
        assertEquals(50.0, a.meanPct(), 1e-9);
        assertEquals(50.0, a.maxPct(), 1e-9);
        AgentCpuUse whole = cpu.over("10.0.0.5:1099", 0, 100_000, 0);
        assertEquals(3500 / 5.0 / 10, whole.meanPct(), 1e-9, "700 ms per second of 1 s: 70%");
        assertEquals(150.0, whole.maxPct(), 1e-9);
        assertEquals(200.0, cpu.over("10.0.0.6:1099", 0, 100_000, 0).meanPct(), 1e-9, "the other agent's own reports");
        assertNull(cpu.over("10.0.0.7:1099", 0, 100_000, 0), "an agent that reported nothing");
        assertNull(cpu.over("10.0.0.5:1099", 30_000, 40_000, 0), "no report in the window");
    }

    @Test
    void somethingElseIsNotAReport() {
        AgentCpu cpu = new AgentCpu();
        assertFalse(cpu.add(null));
        assertFalse(cpu.add("thread=x&cpus=2&at_us=1"));
        assertFalse(cpu.add("cpus=2&at_us=1&cpu_ns=5"));
        assertFalse(cpu.add("thread=x&cpus=two&at_us=1&cpu_ns=5"));
    }
}
