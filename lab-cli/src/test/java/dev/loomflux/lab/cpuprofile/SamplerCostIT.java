package dev.loomflux.lab.cpuprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.cpu.CpuPlan;
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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe for real (about 45 s per check), pinned as a run pins its targets: a flag that changes nothing costs it about
 * nothing, {@code -Xint} (no JIT) far past the limit, and async-profiler's agent really samples it.
 */
class SamplerCostIT {
    private static final Jdk JDK = JdkLocator.system().locate(null);
    private static final CpuPlan CPUS = CpuPlan.plan(true, Map.of());
    private static final AsyncAgent AGENT = AsyncAgent.load(Profiler.ASYNC, JDK);

    @TempDir
    Path dir;

    @Test
    void aHarmlessFlagCostsAboutNothingAndNoJitFarPastTheLimit() {
        List<String> base = targetFlags(new LaunchSettings(JDK, "127.0.0.1", "512m", ResourceLimits.NONE, Set.of(), AGENT).jvmFlags());
        try (LabProcesses owner = new LabProcesses()) {
            ProfilerCost harmless = SamplerCost.measure(Profiler.JFR, probe(base, with(base, "-Dloomflux.harmless=true"), dir.resolve("harmless")),
                    SamplerCost.PAIRS, owner, () -> false);
            assertNotNull(harmless.costPct(), harmless.note());
            // Never past the limit: a harmless flag must not get the line that a sampler's figures are not the apps' own speed. Its
            // median is no test: this host's pairs spread 0.66-1.53, and 5 pairs once all read the flag slower, median 22%
            // (docs/telemetry.md, "The probe's own noise").
            assertFalse(harmless.over(), harmless.toString());

            ProfilerCost interpreted = SamplerCost.measure(Profiler.JFR, probe(base, with(base, "-Xint"), dir.resolve("xint")),
                    SamplerCost.PAIRS, owner, () -> false);
            assertNotNull(interpreted.costPct(), interpreted.note());
            assertTrue(interpreted.costPct() > 5 * SamplerCost.LIMIT_PCT, interpreted.toString());
            assertTrue(SamplerCost.line(interpreted, harmless).contains("its figures are not the apps' own speed"));
        }
    }

    @Test
    void theAgentTheTargetsGetSamplesEveryProbeThatRunsWithIt() throws Exception {
        LaunchSettings settings = new LaunchSettings(JDK, "127.0.0.1", "512m", ResourceLimits.NONE, Set.of(), AGENT);
        List<String> flags = targetFlags(settings.jvmFlags());
        flags.addAll(settings.profilerFlags(dir));
        try (LabProcesses owner = new LabProcesses()) {
            ProfilerCost cost = SamplerCost.measure(Profiler.ASYNC, SamplerCost.Probe.ofSampler(JDK, CPUS.targetPlacement().prefix(), flags, dir),
                    SamplerCost.PAIRS, owner, () -> false);
            assertNotNull(cost.costPct(), cost.note());
            assertEquals(SamplerCost.PAIRS, cost.withOpsPerS().size());
            System.out.println(SamplerCost.line(cost, null) + ": " + cost);
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> recordings = files.filter(f -> f.getFileName().toString().matches("async-profiler\\.\\d+\\.jfr")).toList();
            assertEquals(SamplerCost.PAIRS, recordings.size(), "one recording per probe with the agent, none without: " + recordings);
            for (Path r : recordings) {
                assertTrue(Files.size(r) > 1000, r + ": " + Files.size(r) + " bytes");
            }
        }
    }

    @Test
    void closingTheLabMidProbeLeavesNoProbe() throws Exception {
        List<String> base = targetFlags(new LaunchSettings(JDK, "127.0.0.1", "512m").jvmFlags());
        LabProcesses owner = new LabProcesses();
        CompletableFuture<ProfilerCost> cost = CompletableFuture.supplyAsync(
                () -> SamplerCost.measure(Profiler.JFR, probe(base, base, dir), SamplerCost.PAIRS, owner, () -> false));
        for (int i = 0; i < 100 && !Files.exists(dir.resolve("probe-1-without.log")); i++) {
            Thread.sleep(50);
        }
        Thread.sleep(500);
        owner.close(); // what the lab's Ctrl-C hook does with what it owns
        ProfilerCost ended = cost.get(30, TimeUnit.SECONDS);
        assertNotNull(ended.note(), ended.toString());
        assertEquals(0, ProcessHandle.current().descendants().filter(h -> h.info().commandLine().orElse("").contains(CostProbe.class.getName())).count());
    }

    /** What a target gets besides: the CPU count of its CPU set. */
    private static List<String> targetFlags(List<String> flags) {
        List<String> out = new ArrayList<>(flags);
        if (CPUS.targetPlacement().cpus() > 0) {
            out.add("-XX:ActiveProcessorCount=" + CPUS.targetPlacement().cpus());
        }
        return out;
    }

    private static List<String> with(List<String> flags, String flag) {
        List<String> out = new ArrayList<>(flags);
        out.add(flag);
        return out;
    }

    private static SamplerCost.Probe probe(List<String> without, List<String> with, Path dir) {
        return new SamplerCost.Probe(JDK, CPUS.targetPlacement().prefix(), without, with, dir);
    }
}
