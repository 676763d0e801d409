package dev.loomflux.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.process.OpenFiles;
import dev.loomflux.lab.sut.TargetSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The seed presets read cleanly and keep the seeds' load shapes; --scale shortens without changing users. */
class PresetsTest {
    private static final Path DIR = Path.of(System.getProperty("loomflux.home"), "experiments");

    @Test
    void everySeedHasAPresetThatReads() throws IOException {
        List<Path> seeds;
        try (Stream<Path> files = Files.list(DIR)) {
            seeds = files.filter(f -> f.getFileName().toString().startsWith("seed-")).sorted().collect(Collectors.toList());
        }
        assertEquals(List.of("seed-000-k6-stages.yaml", "seed-001-jmeter-users.yaml", "seed-002-ab-tomcat-threads.yaml",
                "seed-003-gateway-latency.yaml", "seed-004-gatling-burst.yaml"), seeds.stream().map(p -> p.getFileName().toString()).toList());
        for (Path p : seeds) {
            Experiment e = ExperimentReader.read(p, Drivers.ALL);
            assertEquals(p.getFileName().toString().replace(".yaml", ""), e.name());
            assertTrue(e.targets().size() >= 2, p.toString());
        }
    }

    /**
     * The peer pack: every preset reads, runs the four approaches, and holds its connections under this machine's
     * open-file limit of 20,000 (users x the JVMs kept open at once, + the lab's own), which is what sets its scale.
     */
    @Test
    void thePeerPackScalesEveryShapeByOneFactorAndFitsTheOpenFileLimit() throws IOException {
        List<Path> pack;
        try (Stream<Path> files = Files.list(DIR)) {
            pack = files.filter(f -> f.getFileName().toString().startsWith("peer-")).sorted().collect(Collectors.toList());
        }
        assertEquals(8, pack.size(), pack.toString());
        for (Path p : pack) {
            Experiment e = ExperimentReader.read(p, Drivers.ALL);
            assertEquals(List.of("mvc", "mvc-vt", "webflux", "webflux-vt"), e.targets().stream().map(TargetSpec::name).toList(), p.toString());
            assertEquals(e.inRounds() && !e.profile().kind().equals("stages") ? 4 : 1, e.connectedJvms(), p.toString());
            assertTrue(OpenFiles.needed(e.profile().peakUsers(), e.connectedJvms()) <= 20_000, p + ": " + OpenFiles.needed(e.profile().peakUsers(), e.connectedJvms()));
            assertTrue(Files.readString(p).contains("scenarios.csv"), p + " names its source in the peer's repository");
        }
        // The peer's users and rates x 0.4, its 100 ms delay and its 1-3 s pauses kept.
        Experiment k10 = ExperimentReader.read(DIR.resolve("peer-10k.yaml"), Drivers.ALL);
        assertEquals(new LoadProfile.Rate(4000, Duration.ofSeconds(300), 4000), k10.profile());
        assertEquals("/chain?delay=100&depth=0", k10.scenarios().get(0).path());
        assertTrue(k10.inRounds());
        Experiment spike = ExperimentReader.read(DIR.resolve("peer-25k-stepped-spike.yaml"), Drivers.ALL);
        assertEquals(10_000, spike.profile().peakUsers());
        assertEquals(new Think(Duration.ofSeconds(1), Duration.ofSeconds(3)), spike.profile().think());
        assertEquals(Duration.ofSeconds(24), spike.profile().plannedDuration(), "the peer's 300 s as blocks of 0.08 of it");
        assertEquals(10_000, ExperimentReader.read(DIR.resolve("peer-25k-smooth-spike.yaml"), Drivers.ALL).profile().peakUsers());
        assertEquals(new LoadProfile.Rate(2, Duration.ofSeconds(5), 2), ExperimentReader.read(DIR.resolve("peer-smoketest.yaml"), Drivers.ALL).profile());
        // The GET+POST spike: the same ramp and pauses, each iteration three times in four a GET, once a POST.
        Experiment getPost = ExperimentReader.read(DIR.resolve("peer-25k-smooth-spike-get-post.yaml"), Drivers.ALL);
        assertEquals(ExperimentReader.read(DIR.resolve("peer-25k-smooth-spike.yaml"), Drivers.ALL).profile(), getPost.profile());
        Scenario mix = getPost.scenarios().get(0);
        assertEquals(List.of(75, 25), mix.mix().flows().stream().map(Flow::weight).toList());
        assertEquals("/chain?depth=0&delay=100", mix.mix().flows().get(0).steps().get(0).path());
        assertEquals(FlowStep.Method.POST, mix.mix().flows().get(1).steps().get(0).method());
        assertTrue(getPost.needsDatabase(), "its POST writes to PostgreSQL");
    }

    @Test
    void seedShapesAreKept() {
        Experiment s000 = ExperimentReader.read(DIR.resolve("seed-000-k6-stages.yaml"), Drivers.ALL);
        assertEquals(150, s000.profile().peakUsers());
        // In rounds, each block the whole shape, scaled by its file's shape-scale to 9 s.
        assertTrue(s000.inRounds());
        assertEquals(Duration.ofSeconds(9), s000.profile().plannedDuration());
        Experiment s002 = ExperimentReader.read(DIR.resolve("seed-002-ab-tomcat-threads.yaml"), Drivers.ALL);
        assertEquals("10", s002.targets().get(1).properties().get("server.tomcat.threads.max"));
        assertEquals(new LoadProfile.Fixed(100, Duration.ofSeconds(60)), s002.profile());
        Experiment s003 = ExperimentReader.read(DIR.resolve("seed-003-gateway-latency.yaml"), Drivers.ALL);
        assertEquals(List.of("/gateway?delay=10", "/gateway?delay=20"), s003.scenarios().stream().map(Scenario::path).toList());
        // Seeds 001 and 004 in rounds too, each block the whole shape at a tenth of its requests per user, every user kept.
        Experiment s004 = ExperimentReader.read(DIR.resolve("seed-004-gatling-burst.yaml"), Drivers.ALL);
        assertEquals(new LoadProfile.Burst(10000, 10), s004.profile());
        assertTrue(s004.inRounds());
        assertEquals(1, s004.connectedJvms(), "one whole burst's 10,000 connections at a time");
        Experiment s001 = ExperimentReader.read(DIR.resolve("seed-001-jmeter-users.yaml"), Drivers.ALL);
        assertEquals(new LoadProfile.Loops(200, 30), s001.profile());
        assertTrue(s001.inRounds());
    }

    @Test
    void theCpuQuotaPresetGivesEachModelEachQuotaAndTheSameMemory() {
        Experiment e = ExperimentReader.read(DIR.resolve("cpu-quotas.yaml"), Drivers.ALL);
        assertEquals(List.of("/gateway?delay=20", "/plaintext"), e.scenarios().stream().map(Scenario::path).toList());
        assertEquals(new ResourceLimits(0, 1L << 30), e.limits());
        for (String model : List.of("mvc", "mvc-vt", "webflux")) {
            for (double cpus : new double[] {0.5, 1, 2}) {
                String name = model + "-" + (cpus == 0.5 ? "0.5" : Integer.toString((int) cpus)) + "cpu";
                TargetSpec t = e.targets().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name));
                assertEquals(new ResourceLimits(cpus, 0), t.limits(), name);
                // What the target runs with: its own quota over the experiment's memory limit.
                assertEquals(new ResourceLimits(cpus, 1L << 30), t.limits().over(e.limits()), name);
                assertEquals(model.equals("mvc-vt"), t.virtualThreads(), name);
            }
        }
        assertEquals(9, e.targets().size());
    }

    /** docs/sweep.md's finding, one command: only mvc-vt-cache lifts Tomcat's processor cache, at users on both sides of 200. */
    @Test
    void theProcessorCachePresetDiffersFromMvcVtInOnePropertyOnly() {
        Experiment e = ExperimentReader.read(DIR.resolve("vt-processor-cache.yaml"), Drivers.ALL);
        assertEquals(List.of("mvc", "mvc-vt", "mvc-vt-cache"), e.targets().stream().map(TargetSpec::name).toList());
        TargetSpec vt = e.targets().get(1);
        TargetSpec cached = e.targets().get(2);
        assertTrue(vt.virtualThreads() && cached.virtualThreads());
        Map<String, String> added = new java.util.HashMap<>(cached.properties());
        added.entrySet().removeAll(vt.properties().entrySet());
        assertEquals(Map.of("server.tomcat.processor-cache", "-1"), added);
        assertEquals(vt.jvmArgs(), cached.jvmArgs());
        assertEquals(List.of("/gateway?delay=0"), e.scenarios().stream().map(Scenario::path).toList());
        assertEquals(List.of(Map.of("users", 1000), Map.of("users", 400)), e.sweep().cells());
        assertEquals(3, e.repeats());
    }

    @Test
    void scaleShortensDurationsAndCountsButNotUsers() {
        Experiment s000 = ExperimentReader.read(DIR.resolve("seed-000-k6-stages.yaml"), Drivers.ALL).scaled(0.1);
        // Its file already fits the shape to 9 s (shape-scale: 0.1); --scale then shortens each stage to its 1 s floor.
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1)),
                ((LoadProfile.Stages) s000.profile()).stages().stream().map(LoadProfile.Stage::duration).toList());
        assertEquals(150, s000.profile().peakUsers());
        assertEquals(Duration.ofSeconds(18), s000.warmup());
        // The idle phase shrinks too, but keeps two of the resource sampler's 1 s ticks.
        assertEquals(Duration.ofSeconds(2), s000.idle());
        assertEquals(Duration.ofSeconds(30), ExperimentReader.read(DIR.resolve("seed-000-k6-stages.yaml"), Drivers.ALL).scaled(10).idle());
        // Its file already takes a tenth of the loops (shape-scale: 0.1): --scale 0.1 a tenth of that.
        assertEquals(new LoadProfile.Loops(200, 3), ExperimentReader.read(DIR.resolve("seed-001-jmeter-users.yaml"), Drivers.ALL).scaled(0.1).profile());
        assertEquals(new LoadProfile.Fixed(100, Duration.ofSeconds(1)), ExperimentReader.read(DIR.resolve("seed-002-ab-tomcat-threads.yaml"), Drivers.ALL).scaled(0.01).profile());
    }
}
