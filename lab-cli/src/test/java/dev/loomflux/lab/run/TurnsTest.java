package dev.loomflux.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.sut.App;
import dev.loomflux.lab.sut.TargetSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The sequential design's order of turns, cooldowns, restarts and stop, with the JVMs replaced by a script of what each visit does. */
class TurnsTest {
    private static final Scenario PLAINTEXT = new Scenario(Scenario.Endpoint.PLAINTEXT, Map.of());
    private static final Scenario JSON = new Scenario(Scenario.Endpoint.JSON, Map.of());

    private final List<String> events = new ArrayList<>();
    private final List<String> unmeasured = new ArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private int results;

    @Test
    void repeatsMirrorTheOrderWithACooldownBetweenTurnsOnly() {
        run(experiment(2, List.of(PLAINTEXT), "a", "b", "c"), (target, repeat, left) -> measureAll(target, repeat, left));
        assertEquals(List.of("repeat 1 of 2: a", "a#1 plaintext", "cooldown 10 s", "repeat 1 of 2: b", "b#1 plaintext", "cooldown 10 s",
                "repeat 1 of 2: c", "c#1 plaintext", "cooldown 10 s", "repeat 2 of 2: c", "c#2 plaintext", "cooldown 10 s",
                "repeat 2 of 2: b", "b#2 plaintext", "cooldown 10 s", "repeat 2 of 2: a", "a#2 plaintext"), events);
        assertEquals(6, results);
    }

    @Test
    void noTurnStartsOnceTheRunIsStopping() {
        run(experiment(1, List.of(PLAINTEXT), "a", "b", "c"), (target, repeat, left) -> {
            measureAll(target, repeat, left);
            stopping.set(target.name().equals("b"));
            return null;
        });
        assertEquals(List.of("a#1 plaintext", "cooldown 10 s", "b#1 plaintext"), events);
        assertEquals(List.of(), unmeasured, "a stop is no failure");
    }

    @Test
    void aJvmThatDiesAfterMeasuringIsReplacedForWhatIsLeft() {
        int[] starts = new int[1];
        run(experiment(1, List.of(PLAINTEXT, JSON), "a"), (target, repeat, left) -> {
            starts[0]++;
            events.add(target.name() + " start " + starts[0] + " for " + left.stream().map(Scenario::name).toList());
            if (starts[0] == 1) {
                results++;
                left.remove(0);
                return "out of heap";
            }
            return measureAll(target, repeat, left);
        });
        assertEquals(List.of("a start 1 for [plaintext, json]", "a: starting a fresh JVM for what is left (json)", "a start 2 for [json]", "a#1 json"),
                events);
        assertEquals(2, results);
        assertEquals(List.of(), unmeasured);
    }

    @Test
    void aJvmThatDiesBeforeMeasuringAnythingIsNotStartedAgain() {
        run(experiment(1, List.of(PLAINTEXT, JSON), "a", "b"), (target, repeat, left) -> {
            if (target.name().equals("a")) {
                events.add("a died");
                return "exit code 1";
            }
            return measureAll(target, repeat, left);
        });
        assertEquals(List.of("a died", "cooldown 10 s", "b#1 plaintext", "b#1 json"), events);
        assertEquals(List.of("a#1 plaintext: not measured: the target had exited (exit code 1)", "a#1 json: not measured: the target had exited (exit code 1)"),
                unmeasured);
    }

    @Test
    void aJvmThatDiesWhileTheRunStopsIsNotReplaced() {
        run(experiment(1, List.of(PLAINTEXT, JSON), "a", "b"), (target, repeat, left) -> {
            events.add(target.name() + " measured " + left.get(0).name());
            results++;
            left.remove(0);
            stopping.set(true);
            return "killed";
        });
        assertEquals(List.of("a measured plaintext"), events);
        assertEquals(List.of(), unmeasured);
    }

    private String measureAll(TargetSpec target, int repeat, List<Scenario> left) {
        while (!left.isEmpty()) {
            events.add(target.name() + "#" + repeat + " " + left.remove(0).name());
            results++;
        }
        return null;
    }

    private void run(Experiment experiment, Turns.Jvm visit) {
        new Turns(experiment, stopping::get, d -> { }, events::add).run(visit, () -> results,
                (target, scenario, repeat, why) -> unmeasured.add(target.name() + "#" + repeat + " " + scenario.name() + ": " + why));
    }

    private static Experiment experiment(int repeat, List<Scenario> scenarios, String... targets) {
        List<TargetSpec> specs = java.util.Arrays.stream(targets).map(n -> new TargetSpec(n, App.MVC, Map.of(), List.of())).toList();
        return Experiment.builder("turns", specs, scenarios, new LoadProfile.Fixed(1, Duration.ofSeconds(1))).warmup(Duration.ZERO).cooldown(Duration.ofSeconds(10))
                .repeats(repeat).build();
    }
}
