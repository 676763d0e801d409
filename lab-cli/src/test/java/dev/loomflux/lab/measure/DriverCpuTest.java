package dev.loomflux.lab.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The driver's CPU counts the driver's own processes too (JMeter runs as one), not just the lab's JVM. */
class DriverCpuTest {
    @Test
    void aDriverProcessCountsAsTheDrivers() throws Exception {
        // A shell counting (no command it forks, whose CPU would be its children's): about one core, where this JVM,
        // sleeping, uses next to none.
        Process busy = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 1000000000 ]; do i=$((i + 1)); done").start();
        try (DriverCpu withIt = new DriverCpu(1, () -> List.of(busy.toHandle())); DriverCpu without = new DriverCpu(1)) {
            Thread.sleep(2500);
            double seen = withIt.series().stream().mapToDouble(Double::doubleValue).sum();
            double alone = without.series().stream().mapToDouble(Double::doubleValue).sum();
            assertTrue(withIt.series().size() >= 2, withIt.series().toString());
            assertTrue(seen - alone > 50 * withIt.series().size(), "the shell's core: " + withIt.series() + " against " + without.series());
        } finally {
            busy.destroy();
            busy.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** The seconds after the measured window (a driver winding down) are not counted in the window's figures. */
    @Test
    void theWindowCountsOnlyItsOwnSeconds() throws Exception {
        try (DriverCpu cpu = new DriverCpu(1)) {
            Thread.sleep(3500);
            assertTrue(cpu.series().size() >= 3, cpu.series().toString());
            // Each sample sleeps a full second, so the second one ends 2 s in at the earliest: past a 1 s window's grace.
            assertEquals(1, cpu.series(Duration.ofSeconds(1)).size(), cpu.series().toString());
            assertEquals(cpu.series().get(0), cpu.mean(Duration.ofSeconds(1)), 1e-9);
        }
    }
}
