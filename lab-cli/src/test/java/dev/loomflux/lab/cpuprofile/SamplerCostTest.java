package dev.loomflux.lab.cpuprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.jdk.JdkLocator;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.result.ProfilerCost;
import dev.loomflux.lab.sut.LaunchSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profiler-cost check's arithmetic, limit, line and flags, and its failures as notes; the real probe: SamplerCostIT. */
class SamplerCostTest {
    private static final AsyncAgent AGENT = new AsyncAgent(Profiler.ASYNC, Path.of("/cache/libasyncProfiler.so"), "4.2");

    @TempDir
    Path dir;

    @Test
    void theCostIsOneLessTheMedianOfThePairsRatios() {
        // Ratios 0.90, 0.50 (a pair the host disturbed), 0.95: the median, 0.90, ignores the outlier.
        assertEquals(0.10, SamplerCost.cost(List.of(1000L, 1000L, 2000L), List.of(900L, 500L, 1900L)), 1e-12);
        // An even count takes the middle two: ratios 0.5, 0.7, 0.8, 1.0 -> 0.75.
        assertEquals(0.25, SamplerCost.cost(List.of(100L, 100L, 100L, 100L), List.of(80L, 50L, 100L, 70L)), 1e-12);
        // Per pair, not over the totals: a host twice as fast in the second pair does not weigh twice.
        assertEquals(0.20, SamplerCost.cost(List.of(1000L, 2000L, 1000L), List.of(800L, 1600L, 600L)), 1e-12);
        // Faster with it: below 0.
        assertEquals(-0.05, SamplerCost.cost(List.of(1000L), List.of(1050L)), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> SamplerCost.cost(List.of(1L, 2L), List.of(1L)));
        assertThrows(IllegalArgumentException.class, () -> SamplerCost.cost(List.of(), List.of()));
    }

    @Test
    void pastTheLimitTheLineSaysTheFiguresAreNotTheAppsOwnSpeedAndWhatJfrCost() {
        ProfilerCost async = cost("async", 63.2);
        ProfilerCost jfr = cost("jfr", 2.04);
        assertTrue(async.over());
        assertFalse(jfr.over());
        assertFalse(cost("async", SamplerCost.LIMIT_PCT).over(), "the limit itself is within it");
        assertTrue(cost("async", SamplerCost.LIMIT_PCT + 0.1).over());
        // A median past the limit with a pair under it: not flagged, and the line says why.
        ProfilerCost strays = new ProfilerCost("async", List.of(10_000L, 10_000L, 10_000L, 10_000L, 10_000L), List.of(7_500L, 11_900L, 9_000L, 8_800L, 8_600L),
                12.0, SamplerCost.LIMIT_PCT, null);
        assertFalse(strays.over());
        assertEquals("async-profiler cost the probe 12% of its throughput on this host (median of 5 pairs, each -19% to 25%; limit 10%: not every "
                + "pair past it, the host's own noise between pairs may be all of it)", SamplerCost.line(strays, null));
        assertEquals("async-profiler cost the probe 63% of its throughput on this host (median of 3 pairs, each 63%; limit 10%): its figures are not "
                + "the apps' own speed; JFR (the default) cost it 2.0% here (docs/telemetry.md)", SamplerCost.line(async, jfr));
        assertEquals("async-profiler cost the probe 3.1% of its throughput on this host (median of 3 pairs, each 3.1%; limit 10%)",
                SamplerCost.line(cost("async", 3.14), null));
        assertEquals("async-profiler (wall clock) cost the probe 63% of its throughput on this host (median of 3 pairs, each 63%; limit 10%): its figures "
                + "are not the apps' own speed; JFR (the default) not measured: stopped (docs/telemetry.md)",
                SamplerCost.line(cost("async-wall", 63.2), new ProfilerCost("jfr", List.of(), List.of(), null, SamplerCost.LIMIT_PCT, "stopped")));
    }

    @Test
    void withoutTheSamplerBothProfilersRunTheSameJvmAndWithItExactlyTheTargets() {
        Jdk jdk = new Jdk(Path.of("/jdk"), 25, "25");
        LaunchSettings async = new LaunchSettings(jdk, "127.0.0.1", "512m", ResourceLimits.NONE, Set.of(), AGENT);
        LaunchSettings jfr = new LaunchSettings(jdk, "127.0.0.1", "512m");
        List<String> asyncTargets = new ArrayList<>(async.jvmFlags());
        asyncTargets.addAll(async.profilerFlags(dir));
        SamplerCost.Probe underAsync = SamplerCost.Probe.ofSampler(jdk, List.of("taskset", "-c", "0"), asyncTargets, dir);
        SamplerCost.Probe underJfr = SamplerCost.Probe.ofSampler(jdk, List.of(), jfr.jvmFlags(), dir);
        assertEquals(asyncTargets, underAsync.with());
        assertEquals(jfr.jvmFlags(), underJfr.with());
        // A: JFR's recording with its sampler off, no agent, under either.
        assertEquals(async.jvmFlags(), underAsync.without());
        assertEquals(async.jvmFlags(), underJfr.without());
        assertEquals(List.of("-XX:StartFlightRecording:method-profiling=off", "-Xint"), SamplerCost.withoutSampler(List.of("-XX:StartFlightRecording", "-Xint")));
    }

    @Test
    void aProbeThatFailsIsANoteNamingItAndLeavesNoProcess() throws Exception {
        Jdk jdk = JdkLocator.system().locate(null);
        SamplerCost.Probe probe = new SamplerCost.Probe(jdk, List.of(), List.of("-XX:+NoSuchFlagInAnyJvm"), List.of(), dir);
        try (LabProcesses owner = new LabProcesses()) {
            ProfilerCost cost = SamplerCost.measure(Profiler.ASYNC, probe, 3, owner, () -> false);
            assertNull(cost.costPct());
            assertFalse(cost.over());
            assertEquals(List.of(), cost.withoutOpsPerS());
            assertTrue(cost.note().startsWith("probe-1-without exited (code 1): "), cost.note());
            assertFalse(cost.note().contains("\n"), cost.note());
            assertTrue(Files.readString(dir.resolve("probe-1-without.log")).contains("NoSuchFlagInAnyJvm"));
            assertTrue(SamplerCost.line(cost, null).startsWith("async-profiler's cost not measured: probe-1-without exited (code 1)"));
            assertTrue(cost.note().contains("Unrecognized VM option 'NoSuchFlagInAnyJvm'"), cost.note());
            assertEquals(0, ProcessHandle.current().descendants()
                    .filter(h -> h.info().commandLine().orElse("").contains("NoSuchFlagInAnyJvm")).count());

            Path elsewhere = dir.resolve("stopped");
            ProfilerCost stopped = SamplerCost.measure(Profiler.ASYNC,
                    new SamplerCost.Probe(jdk, List.of(), List.of(), List.of(), elsewhere), 3, owner, () -> true);
            assertEquals("stopped", stopped.note());
            assertFalse(Files.exists(elsewhere), "nothing started once told to stop");
        }
    }

    private static ProfilerCost cost(String profiler, double pct) {
        long with = Math.round(10_000 * (1 - pct / 100));
        return new ProfilerCost(profiler, List.of(10_000L, 10_000L, 10_000L), List.of(with, with, with), pct, SamplerCost.LIMIT_PCT, null);
    }
}
