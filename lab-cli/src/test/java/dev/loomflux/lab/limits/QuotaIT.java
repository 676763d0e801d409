package dev.loomflux.lab.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.jdk.JdkLocator;
import dev.loomflux.lab.measure.SteadySignals;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.steady.SteadyRule;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.Targets;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Half a CPU serves half: one warm webflux JVM serves CPU work under a quota of 1 CPU, then 0.5,
 * then 1 again. Changing the quota of the same process isolates what the quota does; two JVMs (one
 * per quota, as a run compares them) also differ by their JIT, up to 2x here (docs/reproducibility.md).
 */
@Tag("long") // ./check long, not CI
class QuotaIT {
    private static final LoadDriver DRIVER = new Hyperfoil();

    /** Enough that one CPU is what limits the target, not the closed loop's round trips (at 16 a JVM served 1,745 rps, 0.5 CPU 1,237). */
    private static final int USERS = 32;
    private static final Duration WINDOW = Duration.ofSeconds(15);
    private static final Duration WARMUP = Duration.ofSeconds(180);
    private static final int ATTEMPTS = 3;

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
                new ResourceLimits(1, 0), java.util.Set.of(), null);
        try (LabProcesses processes = new LabProcesses();
             RunningTarget t = RunningTarget.start(processes, Home.detect(), new Targets().all().get("webflux"), settings, plan.targetPlacement(),
                     URI.create("http://127.0.0.1:9"), null, dir)) {
            plan.move(self, plan.driver());
            // cgroup v1's quota file, or v2's cpu.max ("<quota> <period>"): the test runs on either.
            Path quota = Cgroup.ofThisLab().stream().flatMap(d -> java.util.stream.Stream.of(d.resolve("cpu.cfs_quota_us"), d.resolve("cpu.max")))
                    .filter(Files::exists).findFirst().orElseThrow(() -> new AssertionError("no quota file in " + Cgroup.ofThisLab()));
            // Warmed as ./lab run warms, at the full quota: a compile stage at few users (at 16 from the start, C2
            // starved: 1,921 rps after 120 s, 3,142 a minute later), then the load until steady.
            LoadSpec spec = spec(t, WARMUP);
            try (ResourceSampler sampler = new ResourceSampler().watch(ResourceReport.TARGET, () -> List.of(t.process().pid()), true).start()) {
                SteadySignals signals = new SteadySignals(sampler, null);
                Warmup.Means means = new Warmup.Means(DRIVER, SteadyRule.DEFAULT, signals, Stop.NEVER);
                Warmup.Outcome compiled = Warmup.compile(means, spec, t.cpus(), WARMUP, s -> { });
                Warmup.Outcome warm = Warmup.run(means, spec, WARMUP, s -> { }).after(compiled);
                assertTrue(warm.steady(), "not steady after " + warm.millis() / 1000 + " s: " + warm.check());
            }
            // The two 1-CPU windows around the 0.5 one must agree within 15%, or the machine (or the JIT) moved meanwhile
            // and the ratio means nothing: clean-clone CI saw 4,301 then 2,699 rps at 1 CPU, 93-99% CPU both times. Such a
            // sequence is measured again, at most three times; the checks below hold for the one that held still.
            List<String> attempts = new ArrayList<>();
            Window fullBefore = null;
            Window half = null;
            Window fullAfter = null;
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                fullBefore = window(t, quota, 1.0);
                half = window(t, quota, 0.5);
                fullAfter = window(t, quota, 1.0);
                attempts.add(fullBefore + "; " + half + "; " + fullAfter);
                if (Math.abs(fullAfter.rps() / fullBefore.rps() - 1) < 0.15) {
                    break;
                }
            }
            double ratio = half.rps() / ((fullBefore.rps() + fullAfter.rps()) / 2);
            String figures = String.format(Locale.ROOT, "webflux /cpu, %d users, %d s each: %s; ratio %.3f", USERS, WINDOW.toSeconds(),
                    String.join(" | again: ", attempts), ratio);
            System.out.println(figures);
            assertTrue(Math.abs(fullAfter.rps() / fullBefore.rps() - 1) < 0.15, "1 CPU moved by more than 15% in each of " + ATTEMPTS + " tries: " + figures);
            // Half the CPU can only mean half the throughput where the CPU is what limits it.
            assertTrue(fullBefore.cpu().cpuPct() > 85 && fullAfter.cpu().cpuPct() > 85, "not CPU-bound at 1 CPU: " + figures);
            assertTrue(half.cpu().cpuPct() > 45 && half.cpu().cpuPct() < 55, "CPU used under a 0.5 quota: " + figures);
            assertTrue(half.cpu().throttledPct() > 50, "throttled in most periods: " + figures);
            assertTrue(ratio > 0.425 && ratio < 0.575, "0.5 CPU should serve half of 1 CPU (within 15%): " + figures);
        } finally {
            plan.restore(self, affinity);
        }
        assertEquals(List.of(), Cgroup.ofThisLab());
    }

    /** One window's throughput (responses per second) and what the cgroup counted meanwhile. */
    private record Window(double quota, double rps, Cgroup.Change cpu) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.1f CPU %.0f rps (cgroup CPU %.1f%%, %.0f%% of periods throttled)", quota, rps, cpu.cpuPct(),
                    cpu.throttledPct());
        }
    }

    /** A window at the given quota, after a few seconds to settle. */
    private static Window window(RunningTarget t, Path quota, double cpus) throws Exception {
        String us = Long.toString(Math.round(cpus * Cgroup.PERIOD_US));
        Files.writeString(quota, quota.endsWith("cpu.max") ? us + " " + Cgroup.PERIOD_US : us);
        load(t, Duration.ofSeconds(3));
        Cgroup.Usage from = t.cgroup().usage();
        Measurement m = load(t, WINDOW);
        Cgroup.Change cpu = t.cgroup().usage().since(from);
        assertEquals(0, m.errors().total(), m.errors().toString());
        return new Window(cpus, m.responses() * 1e9 / m.elapsed().toNanos(), cpu);
    }

    private static Measurement load(RunningTarget t, Duration duration) {
        return DRIVER.run(spec(t, duration), null);
    }

    private static LoadSpec spec(RunningTarget t, Duration duration) {
        return new LoadSpec(t.base(), "/cpu?work=1000", new LoadProfile.Fixed(USERS, duration), 1);
    }
}
