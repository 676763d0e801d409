package dev.loomflux.lab.driver.hyperfoil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowCsv;
import dev.loomflux.lab.experiment.FlowData;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.experiment.Think;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkData;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.api.config.Sequence;
import io.hyperfoil.core.parser.BenchmarkParser;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A flow, and a mix of flows, rendered as Hyperfoil benchmarks that Hyperfoil's own parser builds, sequence for sequence. */
class FlowYamlTest {
    private static final LoadDriver DRIVER = new Hyperfoil();
    private static final URI TARGET = URI.create("http://10.0.0.5:8080/api");
    private static final Mix CRUD = Scenario.of("crud", Map.of(), true, "test").mix();

    @TempDir
    Path dir;

    private static Benchmark parse(String yaml) throws Exception {
        BenchmarkParser parser = BenchmarkParser.instance();
        return parser.buildBenchmark(parser.createSource(yaml, BenchmarkData.EMPTY), Map.of());
    }

    /** The YAML with its line breaks and indentation as single spaces. */
    private static String flat(String yaml) {
        return yaml.replaceAll("\\s+", " ");
    }

    private static Map<String, Sequence> sequences(Phase phase) {
        return Arrays.stream(phase.scenario().sequences()).collect(Collectors.toMap(Sequence::name, s -> s));
    }

    @Test
    void aFlowIsOneSequenceOfItsStepsWithItsChecksAndExtraction() throws Exception {
        LoadSpec spec = new LoadSpec(TARGET, CRUD.first().path(), new LoadProfile.Fixed(20, Duration.ofSeconds(10), new Think(Duration.ofMillis(5),
                Duration.ofMillis(5))), 2, Duration.ofSeconds(3), CRUD);
        String yaml = DRIVER.export(spec, "flow").text();
        Benchmark b = parse(yaml);
        Phase phase = b.phases().stream().filter(p -> p.name().equals("fixed")).findFirst().orElseThrow();
        assertEquals(List.of("crud"), Arrays.stream(phase.scenario().initialSequences()).map(Sequence::name).toList());
        assertEquals(Map.of("crud", true, "create.missing", true), sequences(phase).keySet().stream().collect(Collectors.toMap(k -> k, k -> true)));
        // The iteration, the create and the check of its id, ..., the record of the whole iteration and the pause after it.
        List<String> steps = Arrays.stream(sequences(phase).get("crud").steps()).map(s -> s.getClass().getSimpleName()).toList();
        assertEquals(List.of("FlowIterationStep", "BeforeSyncRequestStep", "PrepareHttpRequestStep", "SendHttpRequestStep", "AfterSyncRequestStep",
                "BreakSequenceStep"), steps.subList(0, 6));
        assertEquals(List.of("FlowRecordStep", "ScheduleDelayStep", "AwaitDelayStep"), steps.subList(steps.size() - 3, steps.size()));
        assertEquals(4, steps.stream().filter("SendHttpRequestStep"::equals).count());
        assertEquals(List.of("FlowRecordStep"), Arrays.stream(sequences(phase).get("create.missing").steps()).map(s -> s.getClass().getSimpleName()).toList());
        assertTrue(flat(yaml).contains("POST: pattern: \"/api/items\""), yaml);
        assertTrue(yaml.contains("pattern: \"/api/items/${id}\""), "the base's path goes first");
        assertTrue(yaml.contains("pattern: \"{\\\"name\\\": \\\"item-${n}\\\", \\\"priceCents\\\": ${price}}\""), yaml);
        assertTrue(yaml.contains("metric: \"create\""));
        assertTrue(flat(yaml).contains("min: 204 max: 204"), "delete expects 204");
        assertTrue(flat(yaml).contains("query: \".id\" toVar: \"id\""), yaml);
        assertTrue(yaml.contains("users: 20"));
        assertTrue(yaml.contains("\"crud.price\": \"uniform 100 10000\""));
        assertTrue(yaml.contains("\"crud.n\": \"unique\""));
        assertTrue(yaml.contains("duration: 5ms"), "the profile's pause after each iteration");
        assertTrue(yaml.contains("needs the lab's jar among its extensions"), "an exported flow says what it needs");
        // As the lab runs it: every step with the lab's handler of Connection: close.
        String inLab = BenchmarkYaml.render(spec, PhasePlan.of(spec.profile(), spec.threads()), "flow", true);
        parse(inLab);
        assertEquals(4, inLab.split("- " + ConnectionClose.NAME + ": \\{}", -1).length - 1, inLab);
    }

    @Test
    void aMixStartsTheFlowItsIterationPicksAndEachTargetGetsItsOwnInRounds() throws Exception {
        Files.writeString(dir.resolve("terms.csv"), "term\nloom\nflux\n");
        FlowCsv terms = FlowCsv.read(dir.resolve("terms.csv"), FlowCsv.Per.ITERATION);
        Flow browse = new Flow("browse", 80, List.of(new FlowStep("search", FlowStep.Method.GET, "/items?q=${term}", Map.of(), null, null,
                FlowStep.Expect.SUCCESS, List.of(new FlowStep.Extract("next", FlowStep.Extract.Source.HEADER, "Location")),
                new Think(Duration.ofMillis(10), Duration.ofMillis(30)))), Map.of("term", new FlowData.Column(0)), terms);
        Flow buy = new Flow("buy", 20, List.of(new FlowStep("add", FlowStep.Method.PATCH, "/cart", Map.of("X-Trace", "t-${n}"), "{}", null,
                new FlowStep.Expect(200, 200), List.of(), Think.NONE)), Map.of("n", new FlowData.Unique()), null);
        Mix mix = new Mix("shop", 7, List.of(browse, buy));
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181")), new Rounds.Target("b", URI.create("http://127.0.0.1:8282"))),
                "/items", new LoadProfile.Fixed(6, Duration.ofSeconds(5)), Rounds.shuffled(2, 3, 1), 1, Duration.ofSeconds(10), Duration.ofSeconds(1), mix);
        String yaml = DRIVER.export(rounds, "mix").text();
        Benchmark b = parse(yaml);
        for (String target : List.of("t0", "t1")) {
            Phase phase = b.phases().stream().filter(p -> p.name().equals(target + "/000")).findFirst().orElseThrow();
            assertEquals(List.of("loomflux.iteration"), Arrays.stream(phase.scenario().initialSequences()).map(Sequence::name).toList());
            assertEquals(List.of("browse", "buy", "loomflux.iteration", "search.missing"), sequences(phase).keySet().stream().sorted().toList());
        }
        assertTrue(yaml.contains("authority: \"127.0.0.1:8282\""));
        assertTrue(yaml.contains("\"browse\": 80\n"), yaml);
        assertTrue(yaml.contains("\"browse\": \"iteration " + dir.resolve("terms.csv").toAbsolutePath() + "\""), yaml);
        assertTrue(yaml.contains("users: 6"), "each target's sessions are its users");
        assertTrue(yaml.contains("PATCH:"));
        assertTrue(flat(yaml).contains("\"X-Trace\": pattern: \"t-${n}\""), yaml);
        assertTrue(yaml.contains("value: \"Location\""));
    }
}
