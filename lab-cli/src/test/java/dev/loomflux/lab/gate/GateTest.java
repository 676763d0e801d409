package dev.loomflux.lab.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ScenarioPart;
import java.util.List;
import org.junit.jupiter.api.Test;

class GateTest {
    /** base / head as the paired design writes it (a = base, b = head), its 95% interval, and the design's note. */
    static PairComparison base(String metric, double ratio, double low, double high, String note) {
        return new PairComparison("cpu", null, ScenarioPart.WHOLE, metric, "base", "head", new PairComparison.RatioEstimate(ratio, List.of(low, high), 15),
                new PairComparison.Judgement(PairComparison.UNDECIDED, null, note), null);
    }

    @Test
    void aRegressionIsTheWholeIntervalBeyondTheMarginOnTheWorseSide() {
        // base/head throughput 1.25 (1.20-1.30): head does 0.80 (0.77-0.83) of base's, worse beyond 5%
        Gate.Check t = Gate.check(base("throughput", 1.25, 1.20, 1.30, null), 5);
        assertEquals(Gate.Outcome.REGRESSION, t.outcome());
        assertEquals(0.8, t.ratio());
        assertEquals(0.769, t.low());
        assertEquals(0.833, t.high());
        // latency: lower is better, so base/head 0.80 (head 1.25x as slow) is the regression, 1.25 the improvement
        assertEquals(Gate.Outcome.REGRESSION, Gate.check(base("p50", 0.80, 0.77, 0.83, null), 5).outcome());
        assertEquals(Gate.Outcome.IMPROVEMENT, Gate.check(base("p50", 1.25, 1.20, 1.30, null), 5).outcome());
        assertEquals(Gate.Outcome.IMPROVEMENT, Gate.check(base("throughput", 0.80, 0.77, 0.83, null), 5).outcome());
    }

    @Test
    void withinTheMarginIsEquivalentAcrossItUndecidedAndTheMarginIsTheUsers() {
        assertEquals(Gate.Outcome.EQUIVALENT, Gate.check(base("throughput", 1.01, 0.98, 1.04, null), 5).outcome());
        // a 2% slowdown measured tightly: within 5%, never a regression; beyond a 1% margin it is one
        assertEquals(Gate.Outcome.EQUIVALENT, Gate.check(base("throughput", 1.02, 1.015, 1.025, null), 5).outcome());
        assertEquals(Gate.Outcome.REGRESSION, Gate.check(base("throughput", 1.02, 1.015, 1.025, null), 1).outcome());
        assertEquals(Gate.Outcome.UNDECIDED, Gate.check(base("throughput", 1.05, 1.00, 1.10, null), 5).outcome());
        // the design's note (drift, sets that disagree) stands between an interval and a regression
        Gate.Check noted = Gate.check(base("throughput", 1.25, 1.20, 1.30, "the sets disagree"), 5);
        assertEquals(Gate.Outcome.UNDECIDED, noted.outcome());
        assertEquals("cpu throughput: head/base 0.800 (simultaneous 95% CI 0.769-0.833) over 15 rounds: undecided (the sets disagree)", noted.describe("head/base"));
    }

    private static Gate gate(List<Gate.Check> checks, List<Gate.Check> aa, List<String> behaviour) {
        return new Gate("base", "head", 5, checks, aa, behaviour);
    }

    @Test
    void theExitCodeIsWhatCiActsOn() {
        Gate.Check regression = Gate.check(base("throughput", 1.25, 1.20, 1.30, null), 5);
        Gate.Check equivalent = Gate.check(base("p99", 1.0, 0.97, 1.03, null), 5);
        Gate.Check undecided = Gate.check(base("p50", 1.0, 0.90, 1.10, null), 5);
        Gate.Check quietAa = Gate.check(base("throughput", 1.0, 0.98, 1.02, null), 5);
        Gate.Check noisyAa = Gate.check(base("throughput", 1.12, 1.08, 1.16, null), 5);
        assertEquals(Gate.PASS, gate(List.of(equivalent), List.of(quietAa), List.of()).exitCode());
        assertEquals(Gate.FAIL, gate(List.of(equivalent, regression, undecided), List.of(quietAa), List.of()).exitCode());
        assertEquals(Gate.UNDECIDED, gate(List.of(equivalent, undecided), List.of(quietAa), List.of()).exitCode());
        assertEquals(Gate.FAIL, gate(List.of(equivalent), List.of(quietAa), List.of("cpu: a behaviour change")).exitCode());
        Gate noisy = gate(List.of(regression), List.of(noisyAa), List.of());
        assertEquals(Gate.UNDECIDED, noisy.exitCode(), "the base differs from itself: no regression is believed");
        assertTrue(noisy.headline().startsWith("ab: no verdict: the machine's own noise is larger than the 5% margin: cpu throughput: base#2/base#1 0.893"),
                noisy.headline());
        assertEquals(Gate.UNDECIDED, gate(List.of(), List.of(quietAa), List.of()).exitCode(), "nothing compared is no pass");
    }

    private static Result result(String target, long requests, long status4xx) {
        return new Result(new Result.Key(target, "cpu", 1, null, null, null), Result.Status.OK, new Result.WindowLoad(10.0, requests, requests, requests / 10.0,
                1.0, null, new Result.ErrorCounts(status4xx, 0, 0, status4xx, 0, 0), null, null, null, null), null, null, null, null, null);
    }

    @Test
    void statusesThatDifferAreABehaviourChangeAndNoiseInThemIsNot() {
        List<String> changed = Gate.behaviour(List.of(result("base", 10_000, 0), result("head", 10_000, 10_000)), "base", "head");
        assertEquals(List.of("cpu: base answered 0.0% of its requests with a failing status, head 100.0%: a behaviour change, not a performance change"), changed);
        assertEquals(List.of(), Gate.behaviour(List.of(result("base", 10_000, 3), result("head", 10_000, 5)), "base", "head"), "a few either side");
        assertEquals(List.of(), Gate.behaviour(List.of(result("base", 10_000, 500), result("head", 10_000, 400)), "base", "head"), "both alike");
    }
}
