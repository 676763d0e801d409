package dev.loomflux.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.FakeDriver;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.limits.ResourceLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentReaderTest {
    @TempDir
    Path dir;

    @Test
    void theCommentedExampleReadsAsDocumented() {
        Experiment e = ExperimentReader.read(Path.of(System.getProperty("loomflux.home"), "experiments/example.yaml"), Drivers.ALL);
        assertEquals("example", e.name());
        assertEquals(List.of("mvc", "mvc-vt", "webflux", "mvc-10"), e.targets().stream().map(t -> t.name()).toList());
        assertEquals(Map.of("server.tomcat.threads.max", "10"), e.targets().get(3).properties());
        assertEquals(List.of("/plaintext", "/gateway?delay=20"), e.scenarios().stream().map(Scenario::path).toList());
        assertEquals(new LoadProfile.Fixed(50, Duration.ofSeconds(10)), e.profile());
        assertEquals(Duration.ofSeconds(180), e.warmup());
    }

    /** petclinic.yaml's jar comes from --param, as an absolute path (the target starts elsewhere), into both targets' argv. */
    @Test
    void aParamFillsTheCommandsOfThePetclinicPreset() throws IOException {
        Path jar = Files.writeString(dir.resolve("app.jar"), "");
        Experiment e = ExperimentReader.read(Path.of(System.getProperty("loomflux.home"), "experiments/petclinic.yaml"), Map.of("jar", jar.toString()), Drivers.ALL);
        assertEquals(List.of("petclinic", "petclinic-vt"), e.targets().stream().map(t -> t.name()).toList());
        for (var t : e.targets()) {
            assertEquals(List.of("{java}", "-jar", jar.toAbsolutePath().toString()), t.command().argv().subList(0, 3), t.toString());
        }
        assertTrue(e.targets().get(1).command().argv().contains("--spring.threads.virtual.enabled=true"));
        Scenario flow = e.scenarios().get(0);
        assertEquals("reception", flow.name());
        assertTrue(flow.isFlow());
        assertFalse(flow.needsDatabase(), "its paths are not the built-in API's: no PostgreSQL for it");
    }

    @Test
    void everyProfileKindParses() throws IOException {
        assertEquals(new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(15), 50), new LoadProfile.Stage(Duration.ofSeconds(30), 0)))
                , read("profile: {stages: [{duration: 15s, users: 50}, {duration: 30s, users: 0}]}").profile());
        assertEquals(new LoadProfile.Loops(200, 300), read("profile: {loops: {users: 200, requests: 300}}").profile());
        assertEquals(new LoadProfile.Burst(10000, 100), read("profile: {burst: {users: 10000, requests: 100}}").profile());
        assertEquals(new LoadProfile.Rate(2000, Duration.ofMillis(1500), 500), read("profile: {rate: {rps: 2000, duration: 1500ms, max-in-flight: 500}}").profile());
        assertEquals(new LoadProfile.Rate(50, Duration.ofMinutes(1), 100), read("profile: {rate: {rps: 50, duration: 1m}}").profile());
        // The defaults of the flags (--users 50, --duration 15s, --requests 100): one reader for both.
        assertEquals(new LoadProfile.Fixed(50, Duration.ofSeconds(15)), read("profile: {fixed: {}}").profile());
        assertEquals(new LoadProfile.Loops(50, 100), read("profile: {loops: {}}").profile());
        assertEquals(new LoadProfile.Rate(20000, Duration.ofSeconds(15), 20000), read("profile: {rate: {rps: 20000}}").profile());
    }

    @Test
    void thinkTimeSitsBesideAnyClosedProfile() throws IOException {
        Think uniform = new Think(Duration.ofSeconds(1), Duration.ofSeconds(3));
        assertEquals(new LoadProfile.Fixed(5, Duration.ofSeconds(15), uniform), read("profile: {fixed: {users: 5}, think: 1s..3s}").profile());
        assertEquals(new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(10), 20)), new Think(Duration.ofMillis(100), Duration.ofMillis(100))),
                read("profile: {stages: [{duration: 10s, users: 20}], think: 100ms}").profile());
        assertEquals(new LoadProfile.Loops(5, 10, uniform), read("profile: {think: 1s..3s, loops: {users: 5, requests: 10}}").profile());
        assertEquals(Think.NONE, read("profile: {burst: {users: 5}, think: 0s}").profile().think());
        assertError("profile: {rate: {rps: 10}, think: 1s}", "x.yaml: profile.think: applies to the closed profiles (stages, fixed, loops, burst)");
        assertError("profile: {fixed: {users: 5}, think: 3s..1s}", "x.yaml: profile.think: 3s..1s ends before it starts: give min..max");
        assertError("profile: {fixed: {users: 5}, think: 1s..2s..3s}", "x.yaml: profile.think: expected a pause such as 100ms (fixed) or 1s..3s (uniform)");
        assertError("profile: {fixed: {users: 5}, think: 25h}", "x.yaml: profile.think: 25h is longer than a day");
        assertError("profile: {fixed: {users: 5}, loops: {users: 5}}", "x.yaml: profile: expected exactly one of stages, fixed, loops, burst, rate");
        // A paired block holds ten of the longest pause; the sequential design takes any.
        assertError("profile: {fixed: {users: 5}, think: 200ms}\ndesign: paired",
                "x.yaml: profile.think: a paired block must last 10 of the longest pause, 2000ms, not 1000ms");
        assertEquals(new Think(Duration.ofMillis(200), Duration.ofMillis(200)), read("profile: {fixed: {users: 5}, think: 200ms}").profile().think(),
                "the default gives way instead");
        assertEquals(uniform, read("profile: {fixed: {users: 5}, think: 1s..3s}\ndesign: paired\nblock: 30s").profile().think());
    }

    @Test
    void scenarioParametersTakeDefaultsAndLimits() throws IOException {
        Experiment e = read("profile: {fixed: {users: 1, duration: 1s}}", "[chain: {depth: 5}, items, cpu: {work: 7}]");
        assertEquals(List.of("/chain?delay=20&depth=5", "/items?page=0&size=20", "/cpu?work=7"), e.scenarios().stream().map(Scenario::path).toList());
        // Depth 0: the target waits itself, a fixed wait only (the targets answer 400 to a drawn one).
        assertEquals("/chain?delay=100&depth=0", read("profile: {fixed: {users: 1, duration: 1s}}", "[chain: {depth: 0, delay: 100}]").scenarios().get(0).path());
        assertErrorScenarios("[chain: {depth: 0, dist: uniform}]", "x.yaml: scenarios[0].chain: parameter 'dist' needs depth 1 or more");
    }

    @Test
    void limitsAreForEveryTargetAndNamedOnError() throws IOException {
        assertEquals(new ResourceLimits(0.5, 1L << 30), read("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpus: 0.5, memory: 1g}").limits());
        assertEquals(new ResourceLimits(0, 768L << 20), read("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {memory: 768m}").limits());
        assertEquals(ResourceLimits.NONE, read("profile: {fixed: {users: 1, duration: 1s}}").limits());
        assertEquals(new ResourceLimits(0, 1L << 30), ExperimentReader.read(Path.of(System.getProperty("loomflux.home"),
                "experiments/seed-003-gateway-latency.yaml"), Drivers.ALL).limits(), "seed 003's equal 1 GB containers");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpus: 0}", "x.yaml: limits.cpus: expected a number above 0 and at most 1024, e.g. 0.5, got '0'");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpus: half}", "x.yaml: limits.cpus: expected a number above 0");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {memory: 8m}", "x.yaml: limits.memory: expected at least 16m, got '8m'");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {memory: lots}", "x.yaml: limits.memory lots: expected a size such as 512m or 1g");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpu: 1}", "x.yaml: limits.cpu: unknown key (allowed: ");
    }

    @Test
    void theDesignIsPairedUnlessTheFileSaysSequential() throws IOException {
        String fixed = "profile: {fixed: {users: 1, duration: 1s}}";
        assertEquals(Design.DEFAULT, read(fixed).design());
        assertFalse(read(fixed).design().named());
        assertTrue(read(fixed).decided(null).inRounds());
        assertEquals(Design.SEQUENTIAL, read(fixed + "\ndesign: sequential").design());
        assertEquals(Design.paired(Design.DEFAULT_ROUNDS, Duration.ofSeconds(1), Duration.ZERO, Design.LEAD_IN), read(fixed + "\ndesign: paired").design());
        assertEquals(Design.paired(8, Duration.ofSeconds(2), Duration.ofSeconds(1), 3),
                read(fixed + "\ndesign: paired\nrounds: 8\nblock: 2s\nlead-in: 1s\nlead-in-rounds: 3").design());
        // The default's settings are the file's too: only the name is missing.
        assertEquals(Design.paired(8, Duration.ofSeconds(2), Duration.ZERO, Design.LEAD_IN).byDefault(), read(fixed + "\nrounds: 8\nblock: 2s").design());
        assertTrue(read(fixed + "\ndesign: paired").inRounds());
        assertTrue(read("profile: {loops: {users: 2, requests: 3}}\ndesign: paired").inRounds(), "loops end by a count: each block all of them");
        assertError(fixed + "\ndesign: duet", "x.yaml: design: expected paired or sequential, not 'duet'");
        assertError(fixed + "\ndesign: paired\nrounds: 5", "x.yaml: rounds: 5 is out of range 6..1000");
        assertError(fixed + "\nrounds: 5", "x.yaml: rounds: 5 is out of range 6..1000");
        assertError(fixed + "\ndesign: sequential\nrounds: 8", "x.yaml: rounds: applies to design: paired only");
        assertError(fixed + "\ndesign: paired\nblock: 500ms", "x.yaml: block: a block must last at least 1s");
        assertError(fixed + "\ndesign: paired\nlead-in: 1500ms", "x.yaml: lead-in: expected whole seconds from 0s to 60s");
        assertError(fixed + "\ndesign: sequential\nlead-in: 1s", "x.yaml: lead-in: applies to design: paired only");
        assertError(fixed + "\ndesign: sequential\nlead-in-rounds: 2", "x.yaml: lead-in-rounds: applies to design: paired only");
        assertError(fixed + "\ndesign: paired\nlead-in-rounds: -1", "x.yaml: lead-in-rounds: -1 is out of range 0..100");
        // The rounds are a cap that stops once answered, unless fixed; a budget for the whole run.
        assertFalse(read(fixed).design().fixedRounds());
        assertTrue(read(fixed + "\nfixed-rounds: true").design().fixedRounds());
        assertEquals(Duration.ofMinutes(5), read(fixed + "\ntime: 5m").design().budget());
        assertError(fixed + "\nfixed-rounds: yes please", "x.yaml: fixed-rounds: expected true or false, not 'yes please'");
        assertError(fixed + "\ntime: 0s", "x.yaml: time: must be longer than 0");
        assertError(fixed + "\ndesign: sequential\ntime: 5m", "x.yaml: time: applies to design: paired only");
    }

    /**
     * A file that names no design is paired where the paired design can measure it, else sequential with what rounds
     * would need (the run log's line); named, paired measures a shape in rounds of whole shapes and refuses the rest.
     */
    @Test
    void theDefaultGivesWayToTheSequentialDesignWhereRoundsCannotMeasureTheFile() throws IOException {
        for (String profile : List.of("{stages: [{duration: 5s, users: 2}]}", "{loops: {users: 2, requests: 3}}", "{burst: {users: 2}}")) {
            Experiment e = read("profile: " + profile).decided(null);
            assertEquals(Design.fallback("a steady load (a fixed or rate profile, no sweep)"), e.design(), profile);
            assertEquals("a steady load (a fixed or rate profile, no sweep)", e.sequentialBecause(), profile);
            Experiment named = read("profile: " + profile + "\ndesign: paired").decided(null);
            assertEquals(Design.PAIRED, named.design(), "named, it stays paired: " + profile);
            assertTrue(named.inRounds(), "named, in rounds of whole shapes: " + profile);
            assertNull(named.sequentialBecause(), profile);
        }
        String fixed = "profile: {fixed: {users: 2, duration: 5s}}";
        assertNull(Drivers.ALL.roundsObstacle("jmeter", false), "JMeter, on one process or on agents, runs fixed blocks");
        assertEquals(Design.fallback("the Hyperfoil driver for rate blocks"),
                read("profile: {rate: {rps: 10}}").decided(Drivers.ALL.roundsObstacle("jmeter", true)).design());
        assertEquals(Design.paired(Design.DEFAULT_ROUNDS, Duration.ofSeconds(1), Duration.ZERO, Design.LEAD_IN),
                read("profile: {rate: {rps: 10}}\ndesign: paired").decided(Drivers.ALL.roundsObstacle("jmeter", true)).design(), "named: the driver refuses it");
        assertEquals(Design.fallback("blocks of 10 of the longest pause, 2000ms, not 1000ms (--block, block:)"),
                read("profile: {fixed: {users: 5}, think: 200ms}").decided(null).design());
        assertTrue(read("profile: {fixed: {users: 5}, think: 200ms}\nblock: 2s").decided(null).inRounds(), "a block that holds the pauses");
        assertNull(read(fixed + "\ndesign: sequential").decided(null).sequentialBecause(), "named sequential: nothing to say");
        assertNull(read(fixed).decided(null).sequentialBecause(), "in rounds");
        // Fresh JVMs for every block of a shape are asked for by name, and only where a shape is measured in rounds.
        Experiment fresh = read("profile: {burst: {users: 2}}\ndesign: paired\nfresh-jvms: true").decided(null);
        assertTrue(fresh.freshJvms());
        fresh.requireFreshJvms();
        assertFalse(read("profile: {burst: {users: 2}}\ndesign: paired").decided(null).freshJvms());
        for (String not : List.of("profile: {burst: {users: 2}}\nfresh-jvms: true", fixed + "\ndesign: paired\nfresh-jvms: true")) {
            UsageException e = assertThrows(UsageException.class, () -> read(not).decided(null).requireFreshJvms(), not);
            assertEquals("fresh-jvms: only for a shape (stages, loops or a burst) measured in paired rounds (--design paired)", e.getMessage());
        }
    }

    /** One word, one meaning: repeats are the sequential design's, sets the paired design's, named or by default. */
    @Test
    void repeatNeedsTheSequentialDesignAndSetsThePairedOne() throws IOException {
        String fixed = "profile: {fixed: {users: 2, duration: 5s}}";
        assertError(fixed + "\nrepeat: 3", "x.yaml: repeat: applies to design: sequential; the paired design's JVM sets are sets: 3");
        assertError(fixed + "\ndesign: paired\nrepeat: 3", "x.yaml: repeat: applies to design: sequential; the paired design's JVM sets are sets: 3");
        assertEquals(3, read(fixed + "\ndesign: sequential\nrepeat: 3").repeats());
        assertEquals(2, read(fixed + "\nsets: 2").sets());
        assertError(fixed + "\ndesign: sequential\nsets: 2", "x.yaml: sets: sets are the paired design's (a fixed or rate profile);"
                + " this experiment measures one target after another: write repeat: 2");
        // Where the default gives way, the file is measured one target after another: repeats, as with the flags.
        assertEquals(3, read("profile: {loops: {users: 2, requests: 3}}\nrepeat: 3").repeats());
        assertEquals(3, read(fixed + "\ndesign: sequential\nrepeat: 3\ndriver: {jmeter: {agents: 2}}").repeats());
        assertError(fixed + "\nrepeat: 3\ndriver: jmeter", "x.yaml: repeat: applies to design: sequential");
    }

    @Test
    void theDriverIsTheFilesOwnWithJmetersAgentsAndTheirKeystoreBesideTheFile() throws IOException {
        String fixed = "profile: {fixed: {users: 1, duration: 1s}}";
        assertEquals(DriverChoice.NONE, driver(fixed));
        assertEquals(new DriverChoice("hyperfoil", dir.resolve("x.yaml") + ": driver", null, null), driver(fixed + "\ndriver: hyperfoil"));
        assertEquals(new DriverChoice("jmeter", dir.resolve("x.yaml") + ": driver", null, null), driver(fixed + "\ndriver: jmeter"));
        assertEquals("2", driver(fixed + "\ndriver: {jmeter: {agents: 2}}").agents());
        DriverChoice remote = driver(fixed + "\ndriver: {jmeter: {agents: [10.0.0.5:1099, 'lg2:1099'], keystore: keys/agents.p12}}");
        assertEquals("10.0.0.5:1099,lg2:1099", remote.agents());
        assertEquals(dir.resolve("keys/agents.p12"), remote.keystore(), "beside the file, wherever the lab runs from");
        assertEquals(dir.resolve("x.yaml") + ": driver.jmeter.agents", remote.agentsWhere());
        assertError(fixed + "\ndriver: k6", "x.yaml: driver: 'k6': expected hyperfoil or jmeter", true);
        assertError(fixed + "\ndriver: {jmeter: {agent: 2}}", "x.yaml: driver.jmeter.agent: unknown key (allowed: ", true);
        assertError(fixed + "\ndriver: {hyperfoil: {agents: 2}}", "x.yaml: driver.hyperfoil: only jmeter takes settings (agents, keystore, plan); write driver: hyperfoil", true);
        assertEquals(new LoadProfile.Fixed(1, Duration.ofSeconds(1)), read(fixed + "\ndriver: jmeter").profile(), "the experiment reads past its driver");
    }

    /** A JMeter plan of your own, beside the file: it is the file's scenario, named after it, and the file names no other. */
    @Test
    void aPlanOfYourOwnIsTheFilesScenario() throws IOException {
        Path f = dir.resolve("x.yaml");
        Files.writeString(f, "targets: [mvc, webflux]\nprofile: {fixed: {users: 4, duration: 10s}}\ndriver: {jmeter: {plan: plans/shop.jmx}}\n");
        Experiment e = ExperimentReader.read(f, Drivers.ALL);
        assertEquals(dir.resolve("plans/shop.jmx"), e.driver().plan(), "beside the file, wherever the lab runs from");
        assertEquals("jmeter", e.driver().name());
        assertEquals(dir.resolve("x.yaml") + ": driver.jmeter.plan", e.driver().planWhere());
        assertEquals(List.of(Scenario.plan("shop.jmx")), e.scenarios());
        assertEquals("plan-shop", e.scenarios().get(0).name());
        assertEquals("/", e.scenarios().get(0).path(), "its samplers have their paths");
        assertFalse(e.needsDatabase() || e.needsDownstream());
    }

    @Test
    void errorsNameFileFieldAndWhatIsAllowed() throws IOException {
        assertError("profile: {fixed: {users: 0, duration: 10s}}", "x.yaml: profile.fixed.users: 0 is out of range 1..100000");
        assertError("profile: {fixed: {users: ten, duration: 10s}}", "x.yaml: profile.fixed.users: expected an integer in 1..100000");
        assertError("profile: {fixed: {users: 5, duration: soon}}", "x.yaml: profile.fixed.duration: expected a duration such as 500ms, 30s, 2m or 1h, got 'soon'");
        assertError("profile: {fixed: {users: 5, durtion: 1s}}", "x.yaml: profile.fixed.durtion: unknown key (allowed: ");
        assertError("profile: {steady: {users: 5}}", "x.yaml: profile.steady: unknown profile (allowed: stages, fixed, loops, burst, rate)");
        assertError("profile: {rate: {duration: 1s}}", "x.yaml: profile.rate.rps: required by the rate profile");
        assertErrorScenarios("[gateway: {delay: 99999}]", "x.yaml: scenarios[0].gateway: delay 99999 is out of range 0..5000");
        assertErrorScenarios("[gateway: {depth: 2}]", "x.yaml: scenarios[0].gateway: 'depth' does not apply to gateway (it takes delay)");
        assertErrorScenarios("[soap]", "x.yaml: scenarios[0]: unknown scenario 'soap' (allowed: plaintext, json, gateway, chain, items, cpu, mixed, crud, path:/ANY)");
        assertErrorScenarios("[gateway: {delay: 20, dist: lognormal}]", "x.yaml: scenarios[0].gateway: parameter 'p99' is required for dist=lognormal");
        assertErrorScenarios("[gateway: {delay: 20, dist: gauss}]", "x.yaml: scenarios[0].gateway: parameter 'dist' must be one of fixed, uniform, exponential, lognormal");
        assertErrorScenarios("[json: {dist: uniform}]", "x.yaml: scenarios[0].json: 'dist' does not apply to json (only to scenarios that call the downstream: gateway, chain, mixed)");
        Files.writeString(dir.resolve("x.yaml"), "targets: [mvc\nscenarios: [json]\n");
        assertEquals(0, assertThrows(UsageException.class, () -> ExperimentReader.read(dir.resolve("x.yaml"), Drivers.ALL)).getMessage()
                .indexOf(dir.resolve("x.yaml") + ": not valid YAML at line"));
    }

    @Test
    void aSweepSectionGivesTheGridAndItsCellsAndTargetVariants() throws IOException {
        Experiment e = read("profile: {fixed: {users: 1, duration: 1s}}\nsweep: {delay: [1, 20], users: [10, 100], cell-warmup: 30s}",
                "[gateway: {delay: 5, dist: lognormal, p99: 50}]");
        Sweep sweep = e.sweep();
        assertEquals(Duration.ofSeconds(30), sweep.cellWarmup());
        // users from the most down, for the JIT; delay as given
        assertEquals(List.of(Map.of("delay", 1, "users", 100), Map.of("delay", 1, "users", 10), Map.of("delay", 20, "users", 100),
                Map.of("delay", 20, "users", 10)), sweep.cells());
        Scenario cell = sweep.scenario(e.scenarios().get(0), sweep.cells().get(2));
        assertEquals("/gateway?delay=20&dist=lognormal&p99=50", cell.path());
        // the map is of the scenario over the delays swept, not of the file's delay 5
        assertEquals("gateway-lognormal-p9950", sweep.mapName(e.scenarios().get(0)));
        assertEquals(new LoadProfile.Fixed(100, Duration.ofSeconds(1)), sweep.profile(e.profile(), sweep.cells().get(2)));
        Sweep pools = read("profile: {fixed: {users: 1, duration: 1s}}\nsweep: {property:loomflux.db.pool-size: [5, 40]}").sweep();
        List<Sweep.Variant> variants = pools.variants(e.targets());
        assertEquals(List.of("mvc+db.pool-size-5", "mvc+db.pool-size-40"), variants.stream().map(v -> v.spec().name()).toList());
        assertEquals("40", variants.get(1).spec().properties().get("loomflux.db.pool-size"));
        assertEquals(Map.of("property:loomflux.db.pool-size", 40), variants.get(1).at());
        Sweep heap = read("profile: {fixed: {users: 1, duration: 1s}}\nsweep: {'jvm:-Xms{}m -Xmx{}m': [256]}").sweep();
        assertEquals(List.of("-Xms256m", "-Xmx256m"), heap.variants(e.targets()).get(0).spec().jvmArgs());
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nsweep: {users: [0, 10]}", "x.yaml: sweep.users: 0 is out of range 1..100000");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nsweep: {heap: [256]}", "x.yaml: sweep.heap: unknown parameter (users, rate, delay");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nsweep: {rate: [10]}", "x.yaml: sweep: rate varies a rate profile, not fixed");
        assertError("profile: {fixed: {users: 1, duration: 1s}}\nsweep: {users: [1], delay: [1], work: [1]}", "x.yaml: sweep: vary 1 or 2 parameters, not 3");
        UsageException zero = assertThrows(UsageException.class, () -> read("profile: {fixed: {users: 1, duration: 1s}}\nsweep: {delay: [0, 20]}",
                "[gateway: {delay: 5, dist: lognormal, p99: 50}]"));
        assertEquals(dir.resolve("x.yaml") + ": sweep: parameter 'delay' must be an integer in 1..5000 for dist=lognormal", zero.getMessage(),
                "a cell the targets would refuse is refused before anything starts");
    }

    /** A driver added to the registry is read by what it says of itself: its name, its settings, what it cannot run in rounds. */
    @Test
    void aDriverAddedToTheRegistryIsReadByItsOwnDescription() throws IOException {
        Path f = dir.resolve("x.yaml");
        String fixed = "targets: [mvc]\nscenarios: [plaintext]\nprofile: {fixed: {users: 2, duration: 5s}}\n";
        Files.writeString(f, fixed + "driver: {fake: {agents: 3}}\n");
        Experiment e = ExperimentReader.read(f, FakeDriver.CATALOG);
        assertEquals(new DriverChoice("fake", f + ": driver", "3", null), e.driver());
        assertEquals(f + ": driver.fake.agents", e.driver().agentsWhere());
        assertTrue(e.inRounds(), "it runs rounds");
        // No rate blocks: a rate runs one target after another, whose JVMs are repeats.
        Files.writeString(f, fixed.replace("{fixed: {users: 2, duration: 5s}}", "{rate: {rps: 10}}") + "driver: fake\nrepeat: 3\n");
        Experiment rate = ExperimentReader.read(f, FakeDriver.CATALOG);
        assertEquals(3, rate.repeats());
        assertEquals("the Hyperfoil driver for rate blocks", rate.decided(rate.driver().roundsObstacle(FakeDriver.CATALOG, true)).sequentialBecause());
        Files.writeString(f, fixed + "driver: {fake: {plan: p.jmx}}\n");
        assertTrue(assertThrows(UsageException.class, () -> ExperimentReader.read(f, FakeDriver.CATALOG)).getMessage()
                .startsWith(f + ": driver.fake.plan: unknown key (allowed: "), "no plans of the user's own");
        Files.writeString(f, fixed + "driver: jmeter\n");
        assertEquals(f + ": driver: 'jmeter': expected hyperfoil or fake",
                assertThrows(UsageException.class, () -> ExperimentReader.read(f, FakeDriver.CATALOG)).getMessage(), "the catalog's names");
    }

    private void assertError(String profileYaml, String expected) throws IOException {
        assertError(profileYaml, expected, false);
    }

    private void assertError(String profileYaml, String expected, boolean ofDriver) throws IOException {
        UsageException e = assertThrows(UsageException.class, () -> {
            if (ofDriver) {
                driver(profileYaml);
            } else {
                read(profileYaml);
            }
        });
        assertEquals(0, e.getMessage().indexOf(dir.resolve(expected.substring(0, expected.indexOf(':'))) + expected.substring(expected.indexOf(':'))), e.getMessage());
    }

    private void assertErrorScenarios(String scenarios, String expected) throws IOException {
        UsageException e = assertThrows(UsageException.class, () -> read("profile: {fixed: {users: 1, duration: 1s}}", scenarios));
        assertEquals(0, e.getMessage().indexOf(dir.resolve("x.yaml") + expected.substring(expected.indexOf(':'))), e.getMessage());
    }

    private DriverChoice driver(String profileYaml) throws IOException {
        return read(profileYaml).driver();
    }

    private Experiment read(String profileYaml) throws IOException {
        return read(profileYaml, "[plaintext]");
    }

    private Experiment read(String profileYaml, String scenarios) throws IOException {
        Path f = dir.resolve("x.yaml");
        Files.writeString(f, "targets: [mvc]\nscenarios: " + scenarios + "\n" + profileYaml + "\n");
        return ExperimentReader.read(f, Drivers.ALL);
    }
}
