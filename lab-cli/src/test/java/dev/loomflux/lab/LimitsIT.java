package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.result.LimitsReport;
import dev.loomflux.lab.result.PhaseStats;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --cpus and --memory through real cgroups (docs/limits.md). */
class LimitsIT {
    @Test
    void halfACpuIsThrottledToHalfACpuAndTheJvmSeesOneProcessor() throws Exception {
        assumeTrue(Cgroup.unsupported().isEmpty(), () -> "cgroups: " + Cgroup.unsupported().orElse(""));
        Result half = result(LabCli.of("run", "--aot-cache", "--design", "sequential", "--targets", "webflux", "--scenario", "cpu", "--profile", "fixed", "--users", "4",
                "--duration", "8s", "--warmup", "4s", "--cooldown", "0s", "--cpus", "0.5"));
        LimitsReport limits = half.checks().limits();
        System.out.println("cpu work at 0.5 CPU: " + half.load().throughputRps() + " rps; limits " + limits);
        assertEquals(0.5, limits.cpus());
        // Busy on CPU work, the target uses its whole quota, by the kernel's accounting, and no more.
        assertTrue(limits.throttledPct() > 50, limits.toString());
        assertTrue(limits.cpuPct() > 35 && limits.cpuPct() < 56, limits.toString());
        assertEquals(1, half.visit().targetConfig().jvm().availableProcessors(), half.visit().targetConfig().toString());
        // The same accounting second by second, and per phase.
        int seconds = 0;
        double throttled = 0;
        for (Result.PerSecond row : half.telemetry().series()) {
            if (row.cgroup().throttledPct() != null) {
                seconds++;
                throttled += row.cgroup().throttledPct();
                assertTrue(row.cgroup().cgroupCpuPct() < 70, row.toString());
                assertTrue(row.cgroup().cgroupMemoryMb() > 50, row.toString());
            }
        }
        assertTrue(seconds >= 6, "throttled_pct in " + seconds + " of " + half.telemetry().series().size() + " seconds");
        assertTrue(throttled / seconds > 50, "mean throttled_pct per second " + throttled / seconds);
        PhaseStats measured = null;
        for (PhaseStats p : half.telemetry().phases()) {
            if (p.name().equals("steady")) { // the fixed profile's measured phase
                measured = p;
            }
        }
        assertTrue(measured != null && measured.limits().throttledPct() > 50, half.telemetry().phases().toString());
        assertEquals(List.of(), Cgroup.ofThisLab());
    }

    @Test
    void aMemoryLimitBelowWhatTheTargetNeedsKillsItAndTheResultSaysSo() throws Exception {
        assumeTrue(Cgroup.unsupported().isEmpty(), () -> "cgroups: " + Cgroup.unsupported().orElse(""));
        LabCli run = LabCli.of("run", "--design", "sequential", "--targets", "mvc", "--scenario", "plaintext", "--profile", "fixed", "--users", "4",
                "--duration", "3s", "--warmup", "0s", "--cooldown", "0s", "--heap", "32m", "--memory", "48m"); // a limit under the heap is refused (BadInputTest)
        Result r = resultsOf(run).results().get(0);
        assertEquals("failed", r.outcome().status(), r.toString());
        assertTrue(r.outcome().error().startsWith("mvc was killed by its memory limit of 48 MB while starting (the kernel's OOM killer)"),
                r.outcome().error());
        assertEquals(List.of(), Cgroup.ofThisLab());
    }

    private static Result result(LabCli run) throws Exception {
        Result r = resultsOf(run).results().get(0);
        assertEquals("ok", r.outcome().status(), r.toString());
        return r;
    }

    private static RunRecord resultsOf(LabCli run) throws Exception {
        assertEquals(0, run.exitCode(), run.toString());
        return run.record();
    }
}
