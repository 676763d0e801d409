package dev.loomflux.lab.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real cgroup v1 groups on this machine (skipped where the lab cannot make them). */
class CgroupIT {
    private final LabProcesses processes = new LabProcesses();

    @AfterEach
    void close() {
        processes.close();
    }

    @Test
    void aQuarterCpuQuotaThrottlesABusyLoopToAQuarterOfACpu() throws Exception {
        assumeTrue(Cgroup.unsupported().isEmpty(), () -> "cgroups: " + Cgroup.unsupported().orElse(""));
        try (Cgroup group = Cgroup.create(processes, "quota-test", new ResourceLimits(0.25, 0))) {
            Process busy = new ProcessBuilder(group.wrap(List.of("sh", "-c", "while :; do :; done"))).start();
            long from = System.nanoTime();
            Thread.sleep(3_000);
            Cgroup.Usage u = group.usage();
            double seconds = (System.nanoTime() - from) / 1e9;
            busy.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            double cpus = u.cpuNanos() / 1e9 / seconds;
            assertTrue(cpus > 0.15 && cpus < 0.35, "CPU used under a 0.25 quota: " + cpus + " " + u);
            assertTrue(u.throttledPeriods() > u.periods() / 2, "throttled in most periods: " + u);
        }
        assertEquals(List.of(), Cgroup.ofThisLab(), "every group the lab made is gone");
    }

    @Test
    void aMemoryLimitKillsTheProcessThatExceedsItAndCountsTheKill() throws Exception {
        assumeTrue(Cgroup.unsupported().isEmpty(), () -> "cgroups: " + Cgroup.unsupported().orElse(""));
        try (Cgroup group = Cgroup.create(processes, "memory-test", new ResourceLimits(0, 32L << 20))) {
            // 200 MB in one shell variable: far above the 32 MB limit.
            Process hog = new ProcessBuilder(group.wrap(List.of("sh", "-c", "x=$(yes | head -c 200000000); echo ${#x}")))
                    .redirectErrorStream(true).start();
            assertTrue(hog.waitFor(60, TimeUnit.SECONDS));
            Cgroup.Usage u = group.usage();
            assertEquals(137, hog.exitValue(), new String(hog.getInputStream().readAllBytes()) + " " + u);
            assertTrue(u.oomKills() >= 1, u.toString());
            assertTrue(u.peakMemoryBytes() <= 32L << 20, u.toString());
        }
        assertEquals(List.of(), Cgroup.ofThisLab());
    }

}
