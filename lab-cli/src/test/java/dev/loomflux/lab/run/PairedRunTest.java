package dev.loomflux.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.sut.App;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.verdict.Stopping;
import dev.loomflux.lab.verdict.Timing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The paired design with its JVMs and its load driver faked: the order of the work, a stop, and a JVM that dies in the rounds. */
class PairedRunTest {
    private static final Scenario PLAINTEXT = new Scenario(Scenario.Endpoint.PLAINTEXT, Map.of());
    private static final Scenario JSON = new Scenario(Scenario.Endpoint.JSON, Map.of());
    private static final Scenario PATH = Scenario.custom("/hello", "test");
    /** One lead-in round, then the fewest measured rounds a comparison takes. */
    private static final Design DESIGN = Design.paired(6, Duration.ofSeconds(1), Duration.ZERO, 1);

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final FakeDriver driver = new FakeDriver(events);
    private final Set<String> refused = new java.util.HashSet<>();
    private final FakeStarter starter = new FakeStarter(events, driver, refused);
    private ResultsFile results;
    private String runId;

    @TempDir
    Path tmp;

    @Test
    void everyJvmOfEverySetIsStartedOnceWarmedInTurnAndMeasuredOncePerRoundInTheSeededOrder() throws IOException {
        Experiment experiment = experiment(2, List.of(PLAINTEXT, JSON), "a", "b");
        run(experiment);

        List<String> starts = events.stream().filter(e -> e.startsWith("start ")).sorted().toList();
        assertEquals(List.of("start a#1 beside", "start a#2 beside", "start b#1 beside", "start b#2 beside"), starts);
        List<String> labels = List.of("a#1", "b#1", "a#2", "b#2");
        List<String> expected = new ArrayList<>(List.of("idle 3 s"));
        for (Scenario s : List.of(PLAINTEXT, JSON)) {
            // Set by set, the second set's targets in reverse: no target is compiled first in every set (CellRounds.compileOrder).
            List.of("a#1", "b#1", "b#2", "a#2").forEach(label -> expected.add("compile " + label + " " + s.name()));
            // The rounds' order is drawn from the run's id and the scenario: the same run, the same order.
            long seed = runId.hashCode() * 31L + s.name().hashCode() + Map.of().hashCode();
            List<List<Integer>> order = Rounds.shuffled(labels.size(), DESIGN.rounds() + DESIGN.leadInRounds(), seed);
            for (int round = 0; round < order.size(); round++) {
                for (int index : order.get(round)) {
                    expected.add("block " + labels.get(index) + " round " + round);
                }
            }
            // Each JVM's recording once after the scenario's rounds, named as its .hlog.
            labels.forEach(label -> expected.add("dump " + label.replace("#", "." + s.name() + ".s") + ".jfr"));
        }
        labels.forEach(label -> expected.add("stop " + label));
        // The JVMs' recordings are dumped side by side after a scenario's rounds: in any order among themselves.
        assertEquals(dumpsSorted(expected), dumpsSorted(events.stream().filter(e -> !e.startsWith("start ")).toList()));

        for (Scenario s : List.of(PLAINTEXT, JSON)) {
            List<BlockRecord> blocks = results.blocks().stream().filter(b -> b.scenario().equals(s.name())).toList();
            for (int round = 1; round <= DESIGN.rounds(); round++) {
                int r = round;
                assertEquals(List.of("a#1", "a#2", "b#1", "b#2"), blocks.stream().filter(b -> b.round() == r).map(b -> b.target() + "#" + b.set()).sorted().toList(),
                        "every JVM once in measured round " + round);
            }
        }
        assertEquals(List.of("a plaintext 1 ok", "b plaintext 1 ok", "a plaintext 2 ok", "b plaintext 2 ok",
                "a json 1 ok", "b json 1 ok", "a json 2 ok", "b json 2 ok"), outcomes());
        assertTrue(results.results().stream().allMatch(r -> r.files().jfr() == null && r.telemetry().profile() == null),
                "a recording that was not dumped is no file and no profile");
    }

    @Test
    void aStopInTheRoundsEndsTheRunWithTheScenariosThatFinishedKept() throws IOException {
        driver.beforeBlock((rounds, target, round) -> {
            if (rounds.path().equals(JSON.path()) && round == 3) {
                stopping.set(true); // Ctrl-C: the run's hook cancels the driver's loads
                driver.cancel();
            }
        });
        run(experiment(1, List.of(PLAINTEXT, JSON, PATH), "a", "b"));

        assertEquals(List.of("a plaintext 1 ok", "b plaintext 1 ok"), outcomes(), "the scenario cut short is no result");
        assertEquals(Set.of(PLAINTEXT.name()), results.blocks().stream().map(BlockRecord::scenario).collect(Collectors.toSet()));
        assertTrue(events.stream().noneMatch(e -> e.contains(PATH.name())), "no scenario after the stop: " + events);
        assertEquals(List.of("stop a#1", "stop b#1"), events.subList(events.size() - 2, events.size()), "every JVM stopped: " + events);
    }

    @Test
    void aJvmThatDiesInTheRoundsGetsAFailedResultAndTheOthersGoOn() throws IOException {
        driver.beforeBlock((rounds, target, round) -> {
            if (rounds.path().equals(PLAINTEXT.path()) && target.equals("b") && round == 0) {
                starter.jvm("b", 1).die();
            }
        });
        run(experiment(1, List.of(PLAINTEXT, JSON), "a", "b", "c"));

        // Its death ended that scenario's rounds (the starter stops the load of a JVM that dies) before any measured round.
        assertEquals(List.of("a plaintext 1 failed: no block was measured", "b plaintext 1 failed: target exited during the rounds (code 137)",
                "c plaintext 1 failed: no block was measured",
                "b json 1 failed: target exited before its rounds (code 137)", "a json 1 ok", "c json 1 ok"), outcomes());
        assertTrue(events.contains("compile a#1 json") && events.contains("compile c#1 json") && !events.contains("compile b#1 json"), events.toString());
        List<BlockRecord> json = results.blocks().stream().filter(b -> b.scenario().equals(JSON.name())).toList();
        for (int round = 1; round <= DESIGN.rounds(); round++) {
            int r = round;
            assertEquals(List.of("a", "c"), json.stream().filter(b -> b.round() == r).map(BlockRecord::target).sorted().toList(), "round " + round);
        }
        assertEquals(Set.of("stop a#1", "stop b#1", "stop c#1"), Set.copyOf(events.subList(events.size() - 3, events.size())));
    }

    @Test
    void whereAllButOneTargetDidNotStartNoRoundsRunAndTheStartedJvmsAreStopped() throws IOException {
        refused.add("b");
        run(experiment(2, List.of(PLAINTEXT), "a", "b"));

        assertEquals(List.of("b plaintext 1 failed: b not ready after 3 s", "b plaintext 2 failed: b not ready after 3 s"),
                outcomes().stream().sorted().toList(), "only the refused JVMs' results: nothing measured");
        assertTrue(events.stream().noneMatch(e -> e.startsWith("compile ") || e.startsWith("block ") || e.startsWith("idle ")), events.toString());
        assertEquals(Set.of("stop a#1", "stop a#2"), events.stream().filter(e -> e.startsWith("stop ")).collect(Collectors.toSet()));
        assertTrue(results.blocks().isEmpty());
    }

    @Test
    void withThreeTargetsTheTwoThatStartedAreStillCompared() throws IOException {
        refused.add("c");
        run(experiment(1, List.of(PLAINTEXT), "a", "b", "c"));

        assertEquals(Set.of("a", "b"), results.blocks().stream().map(BlockRecord::target).collect(Collectors.toSet()));
    }

    /**
     * Rounds that stop at a look: two JVMs whose every block is the same are equivalent on throughput, p50 and p99 from the
     * first look (round 10 of up to 15) on; no round starts after the look that stopped them, and results.json says where
     * and why. (Their CPU per request is the test JVM's own, read from /proc: noise, which decides whether the rounds stop at
     * 10 or go to 15.)
     */
    @Test
    void theRoundsStopAtALookAndNoRoundStartsAfterIt() throws IOException {
        Design capped = Design.paired(15, Duration.ofSeconds(1), Duration.ZERO, 1);
        List<TargetSpec> specs = List.of(new TargetSpec("a", App.MVC, Map.of(), List.of()), new TargetSpec("b", App.MVC, Map.of(), List.of()));
        run(Experiment.builder("paired", specs, List.of(JSON), new LoadProfile.Fixed(4, Duration.ofSeconds(1))).warmup(Duration.ofSeconds(10))
                .cooldown(Duration.ZERO).design(capped).build());

        RoundsStop stop = results.stops().get(0);
        assertTrue(stop.rounds() == 10 || stop.rounds() == 15, stop.toString());
        assertEquals(15, stop.cap());
        assertTrue(Set.of(Stopping.DECIDED, Stopping.FUTILE, Stopping.CAP).contains(stop.reason()), stop.toString());
        assertEquals(stop.rounds() == 10 ? List.of(10) : List.of(10, 15), stop.looks().stream().map(RoundsStop.Look::round).toList());
        // One lead-in round (0), then the measured ones: the driver's last round is the stop's, and none after it started.
        assertTrue(events.contains("block a round " + stop.rounds()), events.toString());
        assertTrue(events.stream().noneMatch(e -> e.endsWith(" round " + (stop.rounds() + 1))), "no round after the look that stopped them: " + events);
        results.comparisons(Stopping.reached(results.blocks(), List.of("a", "b"), Timing.FINE, results.stops()));
        List<PairComparison> same = results.snapshot().paired().comparisons().stream().filter(c -> !c.metric().equals("cpu-per-request")).toList();
        assertEquals(3, same.size(), results.snapshot().paired().comparisons().toString());
        assertTrue(same.stream().allMatch(c -> c.outcome().equals(PairComparison.EQUIVALENT) && c.look().reachedAt() == 10 && c.look().level() == stop.level()),
                same.toString());
    }

    /** "a plaintext 1 ok": each result's target, scenario, set and status, in the order they were added. */
    private List<String> outcomes() {
        return results.results().stream().map(r -> r.target() + " " + r.scenario() + " " + r.key().set() + " "
                + (r.ok() ? "ok" : "failed: " + r.outcome().error())).toList();
    }

    private void run(Experiment experiment) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("20261126-054941-paired"));
        runId = dir.getFileName().toString();
        results = new ResultsFile(dir, runId, null, null);
        Log log = new Log() {
            @Override
            public void line(String text) {
            }

            @Override
            public void status(String text) {
            }
        };
        RunContext run = new RunContext(dir, log, new RunContext.Machine(null, new CpuPlan(false, List.of(0), List.of(1), List.of(1), "not pinned"), null, null,
                CategoryRules.lab()), driver, stopping::get, RunContext.Support.NONE);
        Procedure procedure = Procedure.of(experiment).create(experiment, run, results, null);
        new PairedRun(experiment, d -> events.add("idle " + d.toSeconds() + " s")).run(new Session(run, starter, procedure, results, null));
    }

    private static Experiment experiment(int sets, List<Scenario> scenarios, String... targets) {
        List<TargetSpec> specs = Arrays.stream(targets).map(n -> new TargetSpec(n, App.MVC, Map.of(), List.of())).toList();
        return Experiment.builder("paired", specs, scenarios, new LoadProfile.Fixed(4, Duration.ofSeconds(1))).warmup(Duration.ofSeconds(10))
                .cooldown(Duration.ZERO).sets(sets).design(DESIGN).build();
    }

    /** The events with each run of consecutive dumps in name order. */
    private static List<String> dumpsSorted(List<String> events) {
        List<String> out = new ArrayList<>();
        List<String> dumps = new ArrayList<>();
        for (String e : events) {
            if (e.startsWith("dump ")) {
                dumps.add(e);
                continue;
            }
            dumps.stream().sorted().forEach(out::add);
            dumps.clear();
            out.add(e);
        }
        dumps.stream().sorted().forEach(out::add);
        return out;
    }
}
