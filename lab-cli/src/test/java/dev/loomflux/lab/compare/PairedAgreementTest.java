package dev.loomflux.lab.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.ScenarioPart;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Several paired runs side by side: spreads, flips and decided pairs, judged against the goals. */
class PairedAgreementTest {
    private static PairComparison c(String metric, double ratio, String outcome) {
        return new PairComparison("items", null, ScenarioPart.WHOLE, metric, "mvc", "webflux", new PairComparison.RatioEstimate(ratio, List.of(ratio * 0.95, ratio * 1.05), 20),
                new PairComparison.Judgement(outcome, null, null), null);
    }

    private static RunRecord run(PairComparison... cs) {
        return new RunRecord(new RunRecord.Header(3, "r", "completed", null, null), null, null, List.of(), null,
                new RunRecord.PairedRounds(null, List.of(cs), null));
    }

    @Test
    void agreeingRunsMeetEveryGoal() {
        PairedAgreement p = PairedAgreement.of(List.of(
                run(c("throughput", 1.50, "a"), c("p50", 0.60, "a")),
                run(c("throughput", 1.53, "a"), c("p50", 0.63, "a")),
                run(c("throughput", 1.47, "a"), c("p50", 0.58, "a"))));
        List<String[]> t = p.table();
        assertEquals(3, t.size());
        assertEquals("ok", t.get(1)[t.get(1).length - 1]);
        assertEquals("+-2.0%", t.get(1)[6]);
        assertTrue(p.summary().startsWith("3 runs: throughput ratios within +-5%: 1 of 1 (widest +-2.0%); p50 within +-10%: 1 of 1; flips: 0;"), p.summary());
        assertTrue(p.summary().contains("pairs 15%+ apart decided in every run: 2 of 2"), p.summary());
    }

    @Test
    void aFlipASpreadAndAnUndecidedBigDifferenceAreNamed() {
        PairedAgreement p = PairedAgreement.of(List.of(
                run(c("throughput", 1.08, "a"), c("p99", 0.80, "a")),
                run(c("throughput", 0.92, "b"), c("p99", 0.79, "undecided"))));
        List<String[]> t = p.table();
        String throughputGoal = t.get(1)[t.get(1).length - 1];
        assertTrue(throughputGoal.contains("spread over 5%") && throughputGoal.contains("FLIP"), throughputGoal);
        assertEquals("15%+ apart but undecided in a run", t.get(2)[t.get(2).length - 1]);
        assertTrue(p.summary().contains("flips: 1"), p.summary());
    }

    @Test
    void twoRunsSayWhichVerdictsChangedAndByHowMuch() {
        PairedAgreement p = PairedAgreement.of(List.of(
                run(c("throughput", 1.20, "a"), c("p50", 0.90, "a"), c("p99", 1.0, "equivalent")),
                run(c("throughput", 0.90, "b"), c("p50", 0.99, "equivalent"), c("p99", 1.02, "equivalent"))));
        List<String[]> t = p.changesTable();
        assertEquals(List.of("1.200 (1.140-1.260) a", "0.900 (0.855-0.945) b", "-25.0%", "FLIPPED"), List.of(t.get(1)).subList(3, 7));
        assertEquals(List.of("+10.0%", "changed"), List.of(t.get(2)).subList(5, 7));
        assertEquals(List.of("+2.0%", "same"), List.of(t.get(3)).subList(5, 7));
        assertEquals(2, p.changed());
    }

    @Test
    void sequentialRunsHaveNoPairedTable() {
        assertNull(PairedAgreement.of(List.of(run(c("throughput", 1.0, "equivalent")), run())));
    }
}
