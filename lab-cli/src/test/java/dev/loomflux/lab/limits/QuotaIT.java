package dev.loomflux.lab.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.jdk.JdkLocator;
import dev.loomflux.lab.measure.SteadySignals;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.steady.SteadyRule;
import dev.loomflux.lab.target.LaunchSettings;
import dev.loomflux.lab.target.RunningTarget;
import dev.loomflux.lab.target.Targets;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Half a CPU serves half: one warm webflux JVM serves CPU work under a quota of 1 CPU, then 0.5,
 * then 1 again. Changing the quota of the same process isolates what the quota does; two JVMs (one
 * per quota, as a run compares them) also differ by their JIT, up to 2x here (docs/reproducibility.md).
 */
class QuotaIT {
    private static final int USERS = 16;
    private static final Duration WINDOW = Duration.ofSeconds(15);
    private static final Duration WARMUP = Duration.ofSeconds(180);

    @TempDir
    Path dir;

    @Test
    void halfTheQuotaServesHalfTheCpuWorkOfAWarmJvm() throws Exception {
        assumeTrue(Cgroup.unsupported().isEmpty(), () -> "cgroups: " + Cgroup.unsupported().orElse(""));
        CpuPlan plan = CpuPlan.plan(true, Map.of());
        assumeTrue(plan.applied(), "needs pinning: " + plan.note());
        long self = ProcessHandle.current().pid();
        String affinity = CpuPlan.affinityOf(self);
        LaunchSettings settings = new LaunchSettings(JdkLocator.system().locate(null), "127.0.0.1", LaunchSettings.DEFAULT_HEAP,
                new ResourceLimits(1, 0));
        try (RunningTarget t = RunningTarget.start(Home.detect(), new Targets().all().get("webflux"), settings, plan.targetPlacement(),
                URI.create("http://127.0.0.1:9"), null, dir)) {
            plan.move(self, plan.driver());
            Path quota = Cgroup.ofThisLab().stream().map(d -> d.resolve("cpu.cfs_quota_us")).filter(Files::exists).findFirst().orElseThrow();
            // Warmed as ./lab run warms, at the full quota: a compile stage at few users (at 16 from the start, C2
            // starved: 1,921 rps after 120 s, 3,142 a minute later), then the load until steady.
            LoadSpec spec = spec(t, WARMUP);
            try (ResourceSampler sampler = new ResourceSampler().watch(ResourceReport.TARGET, () -> List.of(t.process().pid()), true).start()) {
                SteadySignals signals = new SteadySignals(sampler, null);
                Warmup.Outcome compiled = Warmup.compile(spec, t.cpus(), WARMUP, SteadyRule.DEFAULT, signals, s -> { });
                Warmup.Outcome warm = Warmup.run(spec, WARMUP, SteadyRule.DEFAULT, signals, s -> { }).after(compiled);
                assertTrue(warm.steady(), "not steady after " + warm.millis() / 1000 + " s: " + warm.check());
            }
            double fullBefore = window(t, quota, 1.0);
            Cgroup.Usage from = t.cgroup().usage();
            double half = window(t, quota, 0.5);
            Cgroup.Change underHalf = t.cgroup().usage().since(from);
            double fullAfter = window(t, quota, 1.0);
            double ratio = half / ((fullBefore + fullAfter) / 2);
            System.out.printf(Locale.ROOT, "webflux /cpu, %d users, %d s each: 1 CPU %.0f rps, 0.5 CPU %.0f rps (cgroup CPU %.1f%%, %.0f%% of periods"
                            + " throttled), 1 CPU %.0f rps; ratio %.3f%n", USERS, WINDOW.toSeconds(), fullBefore, half, underHalf.cpuPct(),
                    underHalf.throttledPct(), fullAfter, ratio);
            assertTrue(Math.abs(fullAfter / fullBefore - 1) < 0.15, "the JVM was not warm: 1 CPU before " + fullBefore + ", after " + fullAfter);
            assertTrue(underHalf.cpuPct() > 45 && underHalf.cpuPct() < 55, "CPU used under a 0.5 quota: " + underHalf);
            assertTrue(underHalf.throttledPct() > 50, "throttled in most periods: " + underHalf);
            assertTrue(ratio > 0.425 && ratio < 0.575, "0.5 CPU should serve half of 1 CPU (within 15%): ratio " + ratio);
        } finally {
            plan.restore(self, affinity);
        }
        assertEquals(List.of(), Cgroup.ofThisLab());
    }

    /** Throughput (responses per second) over one window at the given quota, after a few seconds to settle. */
    private static double window(RunningTarget t, Path quota, double cpus) throws Exception {
        Files.writeString(quota, Long.toString(Math.round(cpus * Cgroup.PERIOD_US)));
        load(t, Duration.ofSeconds(3));
        Measurement m = load(t, WINDOW);
        assertEquals(0, m.errors().total(), m.errors().toString());
        return m.responses() * 1e9 / m.elapsed().toNanos();
    }

    private static Measurement load(RunningTarget t, Duration duration) {
        return LoadDriver.run(spec(t, duration), null);
    }

    private static LoadSpec spec(RunningTarget t, Duration duration) {
        return new LoadSpec(t.base(), "/cpu?work=1000", new Profile.Fixed(USERS, duration), 1);
    }
}
