package dev.loomflux.lab.measure;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
