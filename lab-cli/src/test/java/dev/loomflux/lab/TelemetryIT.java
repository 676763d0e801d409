package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Issue #4 end to end: the target's own resources and JVM internals land in results.json. */
class TelemetryIT {
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void gatewayShowsTheThreadContrastAndCpuWorkFillsTheTargetsCpuSet() throws Exception {
        LabCli run = LabCli.of("run", "--aot-cache", "--design", "sequential", "--targets", "mvc,mvc-vt", "--scenario", "gateway,cpu", "--delay", "20",
                "--profile", "fixed", "--users", "100", "--duration", "5s", "--warmup", "0s", "--cooldown", "0s");
        assertEquals(0, run.exitCode(), run.toString());
        Path file = Results.file(run.out());
        JsonNode root = Results.tree(file);
        Map<String, JsonNode> byName = new HashMap<>();
        root.path("results").forEach(r -> byName.put(r.path("target").asText() + " " + r.path("scenario").asText(), r));
        // Pinned (RunIT's runs are not): every target JVM ran on the plan's target CPUs.
        JsonNode pinning = root.path("environment").path("pinning");
        assertTrue(pinning.path("applied").asBoolean(), pinning.toString());

        // 100 users waiting 20 ms on the stub: Tomcat needs a platform thread per waiting request, virtual threads do not.
        JsonNode mvc = byName.get("mvc gateway-delay20");
        JsonNode vt = byName.get("mvc-vt gateway-delay20");
        int mvcThreads = steady(mvc).path("target").path("threads").path("max").asInt();
        int vtThreads = steady(vt).path("target").path("threads").path("max").asInt();
        assertTrue(mvcThreads > 100, "mvc threads " + mvcThreads);
        assertTrue(vtThreads < 60, "mvc-vt threads " + vtThreads);
        assertTrue(mvc.path("jvm").path("peak_platform_threads").asInt() > 100, mvc.path("jvm").toString());
        assertTrue(vt.path("jvm").path("peak_platform_threads").asInt() < 60, vt.path("jvm").toString());
        assertTrue(steady(vt).path("stub").path("cpu_pct").path("mean").asDouble() > 0, "stub CPU sampled");

        for (JsonNode r : root.path("results")) {
            String where = r.path("target").asText() + " " + r.path("scenario").asText();
            assertEquals("ok", r.path("status").asText(), where);
            assertEquals(pinning.path("target").asText(), r.path("target_cpus").asText(), where);
            List<String> phases = r.path("phases").findValuesAsText("name");
            assertEquals(List.of("startup", "idle", "warmup", "steady"), phases, where);
            JsonNode startup = r.path("phases").get(0);
            assertTrue(startup.path("to_s").asDouble() < 0 && startup.path("samples").asInt() >= 2, where + " startup " + startup);
            long sampled = 0;
            for (JsonNode s : r.path("series")) {
                if (s.path("cpu_pct").isNumber()) {
                    sampled++;
                    assertTrue(s.path("rss_mb").asDouble() > 20, where + " rss " + s);
                    assertTrue(s.path("threads").asInt() > 5, where + " threads " + s);
                    assertTrue(s.path("fds").asInt() > 100, where + " fds (100 connections) " + s);
                }
            }
            assertTrue(sampled >= r.path("series").size() - 1, where + ": " + sampled + " of " + r.path("series").size() + " seconds sampled");
            JsonNode jvm = r.path("jvm");
            assertTrue(jvm.path("available").asBoolean(), where + " " + jvm);
            assertTrue(jvm.path("gc_pauses").asLong() >= 0 && jvm.path("gc_pause_max_ms").asDouble() <= jvm.path("gc_pause_total_ms").asDouble(), jvm.toString());
            assertTrue(jvm.path("heap_used_at_end_mb").asDouble() > 0 && jvm.path("heap_max_mb").asDouble() == 512, jvm.toString());
            assertTrue(jvm.path("alloc_rate_mb_s").asDouble() > 0, jvm.toString());
            assertTrue(Files.size(file.resolveSibling(r.path("jfr").asText())) > 10_000, where + " jfr file");
        }

        // One target CPU (taskset) and 100 users hashing: the target's CPU is its CPU set's limit.
        for (String target : List.of("mvc", "mvc-vt")) {
            JsonNode cpu = steady(byName.get(target + " cpu-work1000"));
            assertNotNull(cpu, target);
            double mean = cpu.path("target").path("cpu_pct").path("mean").asDouble();
            assertTrue(mean > 80 && mean < 115, target + " cpu mean " + mean + " (1 CPU = 100)");
        }
    }

    private static JsonNode steady(JsonNode result) {
        for (JsonNode p : result.path("phases")) {
            if (p.path("name").asText().equals("steady")) {
                return p;
            }
        }
        throw new AssertionError("no steady phase in " + result);
    }
}
