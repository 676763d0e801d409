package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.JvmFacts;
import dev.loomflux.lab.result.PhaseStats;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
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
        Path dir = run.dir();
        RunRecord root = Results.record(dir);
        Map<String, Result> byName = new HashMap<>();
        root.results().forEach(r -> byName.put(r.target() + " " + r.scenario(), r));
        // Pinned (RunIT's runs are not): every target JVM ran on the plan's target CPUs.
        Environment.Pinning pinning = root.environment().pinning();
        assertTrue(pinning.applied(), pinning.toString());

        // 100 users waiting 20 ms on the stub: Tomcat needs a platform thread per waiting request, virtual threads do not.
        Result mvc = byName.get("mvc gateway-delay20");
        Result vt = byName.get("mvc-vt gateway-delay20");
        int mvcThreads = steady(mvc).target().threads().max().intValue();
        int vtThreads = steady(vt).target().threads().max().intValue();
        assertTrue(mvcThreads > 100, "mvc threads " + mvcThreads);
        assertTrue(vtThreads < 60, "mvc-vt threads " + vtThreads);
        assertTrue(mvc.telemetry().jvm().peakPlatformThreads() > 100, mvc.telemetry().jvm().toString());
        assertTrue(vt.telemetry().jvm().peakPlatformThreads() < 60, vt.telemetry().jvm().toString());
        assertTrue(steady(vt).stub().cpuPct().mean().doubleValue() > 0, "stub CPU sampled");

        for (Result r : root.results()) {
            String where = r.target() + " " + r.scenario();
            assertEquals("ok", r.outcome().status(), where);
            assertEquals(pinning.target(), r.visit().targetCpus(), where);
            List<String> phases = r.telemetry().phases().stream().map(PhaseStats::name).toList();
            assertEquals(List.of("startup", "idle", "warmup", "steady"), phases, where);
            PhaseStats startup = r.telemetry().phases().get(0);
            assertTrue(startup.toS() < 0 && startup.samples() >= 2, where + " startup " + startup);
            long sampled = 0;
            for (Result.PerSecond s : r.telemetry().series()) {
                if (s.target().cpuPct() != null) {
                    sampled++;
                    assertTrue(s.target().rssMb() > 20, where + " rss " + s);
                    assertTrue(s.target().threads() > 5, where + " threads " + s);
                    assertTrue(s.target().fds() > 100, where + " fds (100 connections) " + s);
                }
            }
            assertTrue(sampled >= r.telemetry().series().size() - 1, where + ": " + sampled + " of " + r.telemetry().series().size() + " seconds sampled");
            JvmFacts jvm = r.telemetry().jvm();
            assertTrue(jvm.available(), where + " " + jvm);
            assertTrue(jvm.gcPauses() >= 0 && jvm.gcPauseMaxMs() <= jvm.gcPauseTotalMs(), jvm.toString());
            assertTrue(jvm.heapUsedAtEndMb() > 0 && jvm.heapMaxMb() == 512, jvm.toString());
            assertTrue(jvm.allocRateMbS() > 0, jvm.toString());
            assertTrue(Files.size(dir.resolve(r.files().jfr())) > 10_000, where + " jfr file");
        }

        // One target CPU (taskset) and 100 users hashing: the target's CPU is its CPU set's limit.
        for (String target : List.of("mvc", "mvc-vt")) {
            PhaseStats cpu = steady(byName.get(target + " cpu-work1000"));
            assertNotNull(cpu, target);
            double mean = cpu.target().cpuPct().mean().doubleValue();
            assertTrue(mean > 80 && mean < 115, target + " cpu mean " + mean + " (1 CPU = 100)");
        }
    }

    private static PhaseStats steady(Result result) {
        for (PhaseStats p : result.telemetry().phases()) {
            if (p.name().equals("steady")) {
                return p;
            }
        }
        throw new AssertionError("no steady phase in " + result);
    }
}
