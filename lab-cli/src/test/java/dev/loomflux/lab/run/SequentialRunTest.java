package dev.loomflux.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.sut.App;
import dev.loomflux.lab.sut.TargetSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sequential design with its JVMs and its load faked: the order of the work, a stop, and a JVM that dies in a
 * scenario. The procedure on each JVM records what it was asked, and says whether the JVM lived through it.
 */
class SequentialRunTest {
    private static final Scenario PLAINTEXT = new Scenario(Scenario.Endpoint.PLAINTEXT, Map.of());
    private static final Scenario JSON = new Scenario(Scenario.Endpoint.JSON, Map.of());

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final FakeDriver driver = new FakeDriver(events);
    private final Set<String> refused = new HashSet<>();
    private final FakeStarter starter = new FakeStarter(events, driver, refused);
    /** What happens once the procedure measured something: "b#1 plaintext" -> an action. */
    private Consumer<String> afterMeasuring = what -> { };
    /** The JVM that dies in the middle of this scenario, "a#1 json": the procedure then says it did not finish. */
    private String diesIn = "";
    private ResultsFile results;

    @TempDir
    Path tmp;

    @Test
    void targetsRunInOrderMirroredOnEvenRepeatsEachInAFreshJvmWithACooldownBetween() throws IOException {
        run(experiment(2, Design.SEQUENTIAL, "a", "b"));
        assertEquals(List.of(
                "repeat 1 of 2: a", "start a#1 alone", "a#1 plaintext", "a#1 json", "stop a#1",
                "cooldown 10 s", "pause 10 s",
                "repeat 1 of 2: b", "start b#1 alone", "b#1 plaintext", "b#1 json", "stop b#1",
                "cooldown 10 s", "pause 10 s",
                "repeat 2 of 2: b", "start b#2 alone", "b#2 plaintext", "b#2 json", "stop b#2",
                "cooldown 10 s", "pause 10 s",
                "repeat 2 of 2: a", "start a#2 alone", "a#2 plaintext", "a#2 json", "stop a#2"), events);
        assertEquals(List.of("a plaintext 1", "a json 1", "b plaintext 1", "b json 1", "b plaintext 2", "b json 2", "a plaintext 2", "a json 2"),
                results.results().stream().map(r -> r.target() + " " + r.scenario() + " " + r.key().repeat()).toList());
    }

    /** A run that named no design and could not be paired says so in the same words, with what rounds would need; a named sequential run says nothing. */
    @Test
    void theDefaultThatGaveWaySaysWhatRoundsWouldNeed() throws IOException {
        run(experiment(1, Design.DEFAULT, "a").decided(null));
        assertEquals("measured one target after another: interleaved rounds need a steady load (a fixed or rate profile, no sweep)", events.get(0));
        events.clear();
        run(experiment(1, Design.fallback("the Hyperfoil driver for rate blocks"), "a"));
        assertEquals("measured one target after another: interleaved rounds need the Hyperfoil driver for rate blocks", events.get(0));
        events.clear();
        run(experiment(1, Design.SEQUENTIAL, "a"));
        assertTrue(events.stream().noneMatch(e -> e.startsWith("measured one target after another")), events.toString());
    }

    @Test
    void aStopEndsTheRunWithWhatFinishedKept() throws IOException {
        afterMeasuring = what -> stopping.set(what.equals("b#1 plaintext"));
        run(experiment(1, Design.SEQUENTIAL, "a", "b", "c"));
        assertEquals(List.of("start a#1 alone", "a#1 plaintext", "a#1 json", "stop a#1", "cooldown 10 s", "pause 10 s",
                "start b#1 alone", "b#1 plaintext", "stop b#1"), events);
        assertEquals(List.of("a plaintext", "a json", "b plaintext"), results.results().stream().map(r -> r.target() + " " + r.scenario()).toList());
    }

    @Test
    void aJvmThatDiesInAScenarioLeavesItAndTheRestToAFreshJvm() throws IOException {
        diesIn = "a#1 json";
        run(experiment(1, Design.SEQUENTIAL, "a", "b"));
        assertEquals(List.of("start a#1 alone", "a#1 plaintext", "a#1 json", "a#1 died", "stop a#1",
                "a: starting a fresh JVM for what is left (json)",
                "start a#1 (JVM 2) alone", "a#1 (JVM 2) json", "stop a#1 (JVM 2)",
                "cooldown 10 s", "pause 10 s",
                "start b#1 alone", "b#1 plaintext", "b#1 json", "stop b#1"), events);
        assertEquals(List.of("a plaintext", "a json", "b plaintext", "b json"), results.results().stream().map(r -> r.target() + " " + r.scenario()).toList());
    }

    @Test
    void aTargetThatDoesNotStartGetsAFailedResultPerScenarioAndTheNextGoesOn() throws IOException {
        refused.add("a");
        run(experiment(1, Design.SEQUENTIAL, "a", "b"));
        assertEquals(List.of("refused a#1", "a: did not start: a not ready after 3 s", "cooldown 10 s", "pause 10 s",
                "start b#1 alone", "b#1 plaintext", "b#1 json", "stop b#1"), events);
        assertEquals(List.of("a plaintext failed", "a json failed", "b plaintext ok", "b json ok"),
                results.results().stream().map(r -> r.target() + " " + r.scenario() + " " + (r.ok() ? "ok" : "failed")).toList());
    }

    /** Measures a scenario by recording it, unless the JVM dies in it. */
    private final class Recording implements Procedure {
        @Override
        public boolean run(TargetVisit visit, Scenario scenario) {
            FakeJvm jvm = (FakeJvm) visit;
            String what = jvm.name() + " " + scenario.name();
            events.add(what);
            if (what.equals(diesIn)) {
                jvm.die();
                return false;
            }
            results.add(visit.stamp(new Result(new Result.Key(visit.spec().name(), scenario.name(), null, null, null, null), Result.Status.OK,
                    null, null, null, null, null, null)));
            afterMeasuring.accept(what);
            return true;
        }

        @Override
        public void summarize() {
        }

        @Override
        public void conclude(Consumer<String> log) {
        }

        @Override
        public boolean answers() {
            return true;
        }
    }

    private void run(Experiment experiment) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("20261126-054941-sequential"));
        results = new ResultsFile(dir, dir.getFileName().toString(), null, null);
        Log log = new Log() {
            @Override
            public void line(String text) {
                events.add(text);
            }

            @Override
            public void status(String text) {
            }
        };
        RunContext run = new RunContext(dir, log, new RunContext.Machine(null, new CpuPlan(false, List.of(0), List.of(1), List.of(1), "not pinned"), null, null,
                CategoryRules.lab()), driver, stopping::get, RunContext.Support.NONE);
        new SequentialRun(experiment, d -> events.add("pause " + d.toSeconds() + " s")).run(new Session(run, starter, new Recording(), results, null));
    }

    /** Loops: a profile the paired design cannot measure in rounds, so that a paired experiment runs sequentially. */
    private static Experiment experiment(int repeat, Design design, String... targets) {
        List<TargetSpec> specs = Arrays.stream(targets).map(n -> new TargetSpec(n, App.MVC, Map.of(), List.of())).toList();
        return Experiment.builder("sequential", specs, List.of(PLAINTEXT, JSON), new LoadProfile.Loops(4, 10)).warmup(Duration.ofSeconds(10))
                .cooldown(Duration.ofSeconds(10)).repeats(repeat).design(design).build();
    }
}
