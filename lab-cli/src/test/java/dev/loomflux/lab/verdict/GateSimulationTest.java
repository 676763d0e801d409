package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.gate.Gate;
import dev.loomflux.lab.result.BlockRecord;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * ./lab ab's verdicts on simulated runs of the measured noise ({@link NoiseModel}): base ("a") and head ("b") in 2 sets, the
 * rounds stopping at a look as the default's do (at most 15), each comparison checked at a 5% margin as the gate checks it,
 * and the A/A check of the base's two sets. Each experiment has its own seed (docs/ci.md, "How often it is wrong").
 */
class GateSimulationTest {
    static final int CAP = 15;
    static final int RUNS = 300;

    /** Per experiment: whether some comparison was a regression, whether throughput's was, and whether the A/A check failed. */
    record Outcome(boolean anyRegression, boolean throughputRegression, boolean noisy) {
    }

    /** {@code RUNS} experiments in which the base is {@code lead} times as good as the head on every metric. */
    static List<Outcome> experiments(double lead, long seed) {
        Map<String, double[]> truth = lead == 1 ? Map.of() : Map.of("a", NoiseModel.better(lead));
        return IntStream.range(0, RUNS).parallel().mapToObj(i -> {
            List<BlockRecord> all = NoiseModel.fitted().run(StoppingSimulationTest.AB, truth, StoppingSimulationTest.SETS, CAP, seed + i);
            StoppingSimulationTest.Run run = StoppingSimulationTest.sequential(all, CAP);
            List<Gate.Check> checks = run.comparisons().stream().map(c -> Gate.check(c, 5)).toList();
            List<Gate.Check> aa = Gate.aa(StoppingSimulationTest.upTo(all, run.rounds()), "a", 5);
            return new Outcome(checks.stream().anyMatch(c -> c.outcome() == Gate.Outcome.REGRESSION),
                    checks.get(0).outcome() == Gate.Outcome.REGRESSION, aa.stream().anyMatch(c -> c.outcome() == Gate.Outcome.REGRESSION
                    || c.outcome() == Gate.Outcome.IMPROVEMENT));
        }).toList();
    }

    private static long count(List<Outcome> runs, java.util.function.Predicate<Outcome> p) {
        return runs.stream().filter(p).count();
    }

    @Test
    void theSameBuildTwiceIsRarelyARegressionAndItsSetsRarelyFailTheAaCheck() {
        List<Outcome> aa = experiments(1, 7_000_000L);
        long regressions = count(aa, Outcome::anyRegression);
        long noisy = count(aa, Outcome::noisy);
        System.out.printf("A/A: %d of %d with a regression, %d with the A/A check failed%n", regressions, RUNS, noisy);
        // Seeds as here: 2 of 300 (0.7%) named a regression on one of the four metrics, 11 (3.7%) failed the A/A check.
        assertTrue(regressions <= RUNS * 0.02, regressions + " of " + RUNS + " A/A experiments with a regression");
        assertTrue(noisy <= RUNS * 0.05, noisy + " of " + RUNS + " A/A experiments whose sets differed beyond 5%");
    }

    @Test
    void aTwentyPercentSlowerHeadIsFoundMostOfTheTimeAndATwoPercentOneRarelyARegression() {
        List<Outcome> slow = experiments(1.2, 8_000_000L);
        long found = count(slow, o -> o.throughputRegression() && !o.noisy());
        List<Outcome> slight = experiments(1.02, 9_000_000L);
        long wrong = count(slight, Outcome::anyRegression);
        System.out.printf("20%%: throughput a regression in %d of %d (A/A check passed); 2%%: %d of %d with a regression%n", found, RUNS, wrong, RUNS);
        // Seeds as here: the 20% found in 209 of 300 (70%) within 15 rounds; the 2% a regression on some metric in 5 of 300 (1.7%),
        // not the never the gate should be: four metrics each judged at 5% (docs/ci.md, "How often it is wrong").
        assertTrue(found >= RUNS * 0.6, "a 20% slowdown found in " + found + " of " + RUNS);
        assertTrue(wrong <= RUNS * 0.03, "a 2% slowdown a regression in " + wrong + " of " + RUNS);
    }
}
