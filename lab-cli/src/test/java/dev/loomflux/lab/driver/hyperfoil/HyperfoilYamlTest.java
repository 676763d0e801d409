package dev.loomflux.lab.driver.hyperfoil;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.Rounds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkData;
import io.hyperfoil.api.config.Model;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.core.parser.BenchmarkParser;
import io.hyperfoil.http.config.ConnectionStrategy;
import io.hyperfoil.http.config.Http;
import io.hyperfoil.http.config.HttpPluginConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** What {@link Hyperfoil#export} writes is what Hyperfoil's own parser builds, phase for phase. */
class HyperfoilYamlTest {
    private static final LoadDriver DRIVER = new Hyperfoil();

    private static final URI TARGET = URI.create("http://10.0.0.5:8080");

    private static Benchmark parse(String yaml) throws Exception {
        BenchmarkParser parser = BenchmarkParser.instance();
        return parser.buildBenchmark(parser.createSource(yaml, BenchmarkData.EMPTY), Map.of());
    }

    private static Benchmark check(LoadProfile profile, int threads) throws Exception {
        LoadSpec spec = new LoadSpec(TARGET, "/gateway?delay=20&x=\"y\"", profile, threads, Duration.ofMillis(2500));
        String yaml = DRIVER.export(spec, "loomflux-test").text();
        Benchmark b = parse(yaml);
        PhasePlan plan = PhasePlan.of(profile, threads);

        assertEquals("loomflux-test", b.name());
        assertEquals(threads, b.threads(0));
        Http http = b.plugin(HttpPluginConfig.class).defaultHttp();
        assertEquals("10.0.0.5", http.host());
        assertEquals(8080, http.port());
        assertEquals(ConnectionStrategy.SHARED_POOL, http.connectionStrategy());
        assertEquals(plan.connections(), http.sharedConnections().core());
        assertEquals(plan.connections(), http.sharedConnections().max());
        assertEquals(1, http.pipeliningLimit());
        assertEquals(2500, http.requestTimeout());
        assertTrue(yaml.contains("cache-control: no-store"));
        assertTrue(yaml.contains("GET: \"/gateway?delay=20&x=\\\"y\\\"\""), yaml);

        Map<String, Phase> phases = b.phases().stream().collect(Collectors.toMap(Phase::name, Function.identity()));
        assertEquals(plan.phases().size(), phases.size(), "phases: " + phases.keySet());
        for (PhasePlan.LoadPhase want : plan.phases()) {
            Phase got = phases.get(want.name());
            assertTrue(got != null, "missing phase " + want.name());
            assertEquals(want.startMs(), Math.max(0, got.startTime()), want.name() + " start");
            assertEquals(want.durationMs(), got.duration(), want.name() + " duration");
            switch (want.model()) {
                case ALWAYS -> assertEquals(want.users(), ((Model.Always) got.model).users);
                case AT_ONCE -> assertEquals(want.users(), ((Model.AtOnce) got.model).users);
                case CONSTANT_RATE -> {
                    Model.ConstantRate rate = (Model.ConstantRate) got.model;
                    assertEquals(want.rps(), rate.usersPerSec);
                    assertEquals(want.maxInFlight(), rate.maxSessions);
                    assertFalse(rate.variance, "metronome arrivals");
                }
            }
        }
        return b;
    }

    @Test
    void everyProfileParsesToTheSamePhases() throws Exception {
        check(new LoadProfile.Fixed(20, Duration.ofSeconds(3)), 1);
        check(new LoadProfile.Loops(5, 200), 2);
        check(new LoadProfile.Burst(50, 4), 1);
        check(new LoadProfile.Rate(200, Duration.ofSeconds(3), 50), 2);
        Benchmark ramp = check(new LoadProfile.Stages(List.of(
                new LoadProfile.Stage(Duration.ofSeconds(15), 50),
                new LoadProfile.Stage(Duration.ofSeconds(30), 100),
                new LoadProfile.Stage(Duration.ofSeconds(15), 0))), 1);
        assertTrue(ramp.phases().size() > 50, "a layer per distinct user lifetime");
    }

    @Test
    void thinkTimeFollowsEveryRequestOfEveryClosedProfile() throws Exception {
        Think fixed = new Think(Duration.ofMillis(100), Duration.ofMillis(100));
        Think uniform = new Think(Duration.ofSeconds(1), Duration.ofSeconds(3));
        List<LoadProfile> profiles = List.of(new LoadProfile.Fixed(20, Duration.ofSeconds(3), fixed), new LoadProfile.Loops(5, 200, uniform),
                new LoadProfile.Burst(50, 4, fixed), new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(5), 10)), uniform));
        for (LoadProfile p : profiles) {
            // Hyperfoil's parser refuses a constant pause with bounds, or a uniform one with a duration.
            Benchmark b = check(p, 2);
            String yaml = DRIVER.export(new LoadSpec(TARGET, "/", p, 2), "t").text();
            String pause = yaml.substring(yaml.indexOf("thinkTime:"));
            assertTrue(p.think() == fixed ? pause.matches("(?s)thinkTime:\n +duration: 100ms\n.*")
                    : pause.matches("(?s)thinkTime:\n +random: LINEAR\n +min: 1000ms\n +max: 3000ms\n.*"), yaml);
            assertTrue(yaml.indexOf("thinkTime") > yaml.indexOf("httpRequest"), "the pause comes after the request: " + yaml);
            if (p instanceof LoadProfile.Fixed) {
                // Two steps (schedule, await) follow the request's own in the one sequence.
                List<String> steps = Arrays.stream(b.phases().iterator().next().scenario().sequences()[0].steps())
                        .map(x -> x.getClass().getSimpleName()).toList();
                assertEquals(List.of("ScheduleDelayStep", "AwaitDelayStep"), steps.subList(steps.size() - 2, steps.size()), steps.toString());
            }
        }
        String none = DRIVER.export(new LoadSpec(TARGET, "/", new LoadProfile.Fixed(2, Duration.ofSeconds(1)), 1), "t").text();
        assertFalse(none.contains("thinkTime"), none);
    }

    /**
     * The lab's own handler of {@code Connection: close} follows every request of the benchmark the lab runs, plain loads and
     * rounds alike, and Hyperfoil's parser finds it; the exported file, for a stock Hyperfoil, does not name it and says so.
     */
    @Test
    void onlyTheBenchmarkRunInTheLabNamesItsHandlerOfConnectionClose() throws Exception {
        LoadProfile fixed = new LoadProfile.Fixed(20, Duration.ofSeconds(3));
        LoadSpec spec = new LoadSpec(TARGET, "/", new LoadProfile.Loops(5, 200), 2);
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", TARGET), new Rounds.Target("b", URI.create("http://10.0.0.6:8080"))), "/",
                fixed, Rounds.shuffled(2, 2, 1), 1, Duration.ofSeconds(10), Duration.ZERO);
        String handler = "- " + ConnectionClose.NAME + ": {}";
        for (String inLab : List.of(BenchmarkYaml.render(spec, PhasePlan.of(spec.profile(), 2), "t", true), BenchmarkYaml.render(rounds, "r", true))) {
            assertEquals(inLab.split("httpRequest:", -1).length - 1, inLab.split(Pattern.quote(handler), -1).length - 1, inLab);
            parse(inLab);
        }
        for (String export : List.of(DRIVER.export(spec, "t").text(), DRIVER.export(rounds, "r").text())) {
            assertFalse(export.contains(ConnectionClose.NAME), export);
            assertTrue(export.contains("Connection: close"), "says what a stock Hyperfoil does with it: " + export);
        }
    }

    @Test
    void aConnectionHeaderClosesWhenOneOfItsOptionsIsClose() {
        for (String yes : List.of("close", "Close", " CLOSE ", "keep-alive, close", "close,upgrade")) {
            assertTrue(ConnectionClose.closes(yes), yes);
        }
        for (String no : List.of("keep-alive", "Keep-Alive", "closed", "upgrade, closer", "", ",")) {
            assertFalse(ConnectionClose.closes(no), no);
        }
    }

    @Test
    void quotingSurvivesAYamlParser() {
        String nasty = "/p?a=\"b\"&c=\\d#e: f";
        Object parsed = new Yaml().load("k: " + BenchmarkYaml.quote(nasty));
        assertEquals(Map.of("k", nasty), parsed);
    }
}
