package dev.loomflux.lab.procedure;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.ExperimentReader;
import dev.loomflux.lab.experiment.LoadProfile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProgressTest {
    private final Experiment example = ExperimentReader.read(Path.of(System.getProperty("loomflux.home"), "experiments/example.yaml"), Drivers.ALL);

    @Test
    void theEstimateIsAnUpperBoundFromEveryWarmupBudget() {
        // 4 targets x 2 scenarios; each at most 180 s warmup + 10 s load + 5 s after it, plus half of a target's 30 s start,
        // 3 s idle and 10 s cooldown: 216 s; 8 of them, 20 s setup and 10 s for the report.
        Progress p = Progress.of(example);
        assertTrue(p.estimate().startsWith("at most 29 min (8 target x scenario run(s), each at most 4 min;"), p.estimate());
        p.unitStarted();
        assertTrue(p.status().matches("\\[1/8\\] 0:0[0-2] elapsed, at most 28:5[6-8] left"), p.status());
        p.unitDone();
        p.unitDone();
        p.unitDone();
        p.unitStarted();
        assertTrue(p.status().matches("\\[4/8\\] 0:0[0-2] elapsed, at most 18:(08|09|10) left"), p.status());
    }

    @Test
    void noEstimateWhenTheLoadEndsByCountNotByClock() {
        Experiment loops = Experiment.builder("x", example.targets(), example.scenarios(), new LoadProfile.Loops(10, 100)).warmup(example.warmup())
                .cooldown(example.cooldown()).build();
        assertNull(Progress.of(loops));
    }
}
