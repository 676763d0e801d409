package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.result.Results;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --cpus and --memory through real cgroups (docs/limits.md). */
class LimitsIT {
    @Test
    void halfACpuIsThrottledToHalfACpuAndTheJvmSeesOneProcessor() throws Exception {
        assumeTrue(Cgroup.unsupported().isEmpty(), () -> "cgroups: " + Cgroup.unsupported().orElse(""));
        JsonNode half = result(LabCli.of("run", "--aot-cache", "--design", "sequential", "--targets", "webflux", "--scenario", "cpu", "--profile", "fixed", "--users", "4",
                "--duration", "8s", "--warmup", "4s", "--cooldown", "0s", "--cpus", "0.5"));
        JsonNode limits = half.path("limits");
        System.out.println("cpu work at 0.5 CPU: " + half.path("throughput_rps") + " rps; limits " + limits);
        assertEquals(0.5, limits.path("cpus").asDouble());
        // Busy on CPU work, the target uses its whole quota, by the kernel's accounting, and no more.
        assertTrue(limits.path("throttled_pct").asDouble() > 50, limits.toString());
        assertTrue(limits.path("cpu_pct").asDouble() > 35 && limits.path("cpu_pct").asDouble() < 56, limits.toString());
        assertEquals(1, half.path("target_config").path("jvm").path("available_processors").asInt(), half.path("target_config").toString());
        // The same accounting second by second, and per phase.
        int seconds = 0;
        double throttled = 0;
        for (JsonNode row : half.path("series")) {
            if (row.path("throttled_pct").isNumber()) {
                seconds++;
                throttled += row.path("throttled_pct").asDouble();
                assertTrue(row.path("cgroup_cpu_pct").asDouble() < 70, row.toString());
                assertTrue(row.path("cgroup_memory_mb").asDouble() > 50, row.toString());
            }
        }
        assertTrue(seconds >= 6, "throttled_pct in " + seconds + " of " + half.path("series").size() + " seconds");
        assertTrue(throttled / seconds > 50, "mean throttled_pct per second " + throttled / seconds);
        JsonNode measured = null;
        for (JsonNode p : half.path("phases")) {
            if (p.path("name").asText().equals("steady")) { // the fixed profile's measured phase
                measured = p;
            }
        }
        assertTrue(measured != null && measured.path("limits").path("throttled_pct").asDouble() > 50, half.path("phases").toString());
        assertEquals(List.of(), Cgroup.ofThisLab());
    }

    @Test
    void aMemoryLimitBelowWhatTheTargetNeedsKillsItAndTheResultSaysSo() throws Exception {
        assumeTrue(Cgroup.unsupported().isEmpty(), () -> "cgroups: " + Cgroup.unsupported().orElse(""));
        LabCli run = LabCli.of("run", "--design", "sequential", "--targets", "mvc", "--scenario", "plaintext", "--profile", "fixed", "--users", "4",
                "--duration", "3s", "--warmup", "0s", "--cooldown", "0s", "--heap", "32m", "--memory", "48m"); // a limit under the heap is refused (BadInputTest)
        JsonNode r = resultsOf(run).path("results").get(0);
        assertEquals("failed", r.path("status").asText(), r.toString());
        assertTrue(r.path("error").asText().startsWith("mvc was killed by its memory limit of 48 MB while starting (the kernel's OOM killer)"),
                r.path("error").asText());
        assertEquals(List.of(), Cgroup.ofThisLab());
    }

    private static JsonNode result(LabCli run) throws Exception {
        JsonNode r = resultsOf(run).path("results").get(0);
        assertEquals("ok", r.path("status").asText(), r.toString());
        return r;
    }

    private static JsonNode resultsOf(LabCli run) throws Exception {
        assertEquals(0, run.exitCode(), run.toString());
        return Results.tree(run.out());
    }
}
