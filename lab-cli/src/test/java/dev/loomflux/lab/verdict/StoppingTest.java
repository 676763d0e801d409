package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.stats.AlphaSpending;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The looks, and what stops the rounds at one: every comparison decided, none able to be by the cap, or the time budget. */
class StoppingTest {
    private static final List<String> AB = List.of("a", "b");
    /** Shared by the tests' many runs, whose looks fall at the same fractions. */
    private static final AlphaSpending SPENDING = new AlphaSpending();

    /** Looks at every planned round until one says stop; the round it stopped at, and why. */
    private static Object[] run(Stopping s, List<BlockRecord> all, double secondsLeft) {
        for (int round : s.planned()) {
            List<BlockRecord> seen = all.stream().filter(b -> b.round() <= round).toList();
            Stopping.Seen look = s.look(round, seen, 6, secondsLeft);
            if (look.stop() != null) {
                return new Object[] {round, look.stop(), look.comparisons()};
            }
        }
        throw new AssertionError("no look stopped the rounds");
    }

    @Test
    void theLooksStartAtTenEveryFiveRoundsAndEndAtTheCap() {
        assertEquals(List.of(10, 15, 20, 25, 30, 35, 40, 45), new Stopping(45, AB, Timing.FINE).planned());
        assertEquals(List.of(10, 15, 20, 23), new Stopping(23, AB, Timing.FINE).planned());
        assertEquals(List.of(6), new Stopping(6, AB, Timing.FINE).planned());
        List<Integer> many = new Stopping(500, AB, Timing.FINE).planned();
        assertTrue(many.size() <= Stopping.MAX_LOOKS, many.toString());
        assertEquals(500, many.get(many.size() - 1));
    }

    @Test
    void aClearLeadStopsTheRoundsEarlyWithAWinnerAndTheLevelTheLooksLeft() {
        Stopping s = new Stopping(45, AB, Timing.FINE, SPENDING);
        Object[] stop = run(s, ComparisonsTest.blocks(1, 45, 1.3, 0, 1), Double.POSITIVE_INFINITY);
        assertEquals(Stopping.DECIDED, stop[1]);
        assertTrue((int) stop[0] <= 20, "stopped at " + stop[0]);
        @SuppressWarnings("unchecked")
        List<PairComparison> cs = (List<PairComparison>) stop[2];
        assertEquals(PairComparison.A, cs.stream().filter(c -> c.metricKind() == Metric.THROUGHPUT).findFirst().orElseThrow().outcome());
        double level = s.looks().get(s.looks().size() - 1).level();
        assertTrue(level < 0.01, "an early look's level is strict: " + level);
    }

    @Test
    void theSameTargetTwiceEndsEquivalentAndNeverWithAWinner() {
        for (long seed = 1; seed <= 20; seed++) {
            Stopping s = new Stopping(45, AB, Timing.FINE, SPENDING);
            Object[] stop = run(s, ComparisonsTest.blocks(1, 45, 1.0, 0, seed), Double.POSITIVE_INFINITY);
            @SuppressWarnings("unchecked")
            List<PairComparison> cs = (List<PairComparison>) stop[2];
            assertTrue(cs.stream().noneMatch(c -> c.outcome().equals(PairComparison.A) || c.outcome().equals(PairComparison.B)), cs.toString());
        }
    }

    @Test
    void aLeadSittingOnTheMinimumEffectIsGivenUpBeforeTheCap() {
        // 5% exactly: no number of rounds takes the interval past the line.
        Stopping s = new Stopping(90, AB, Timing.FINE, SPENDING);
        Object[] stop = run(s, ComparisonsTest.blocks(1, 90, 1.05, 0, 3), Double.POSITIVE_INFINITY);
        assertEquals(Stopping.FUTILE, stop[1], "stopped at " + stop[0]);
        assertTrue((int) stop[0] < 90, "stopped at " + stop[0]);
    }

    @Test
    void aComparisonStillOpenAtTheCapStopsTheRoundsForTheCap() {
        // An 8% lead in 3% noise is not told in 10 rounds: the cap's look, not futility, ends them.
        Stopping s = new Stopping(10, AB, Timing.FINE, SPENDING);
        Object[] stop = run(s, ComparisonsTest.blocks(1, 10, 1.08, 0, 5), Double.POSITIVE_INFINITY);
        assertEquals(10, stop[0]);
        assertEquals(Stopping.CAP, stop[1]);
    }

    @Test
    void oneTargetAloneHasNoAnswerToWaitForAndTakesEveryRound() {
        List<BlockRecord> alone = ComparisonsTest.blocks(1, 45, 1.0, 0, 7).stream().filter(b -> b.target().equals("a")).toList();
        Object[] stop = run(new Stopping(45, List.of("a"), Timing.FINE), alone, Double.POSITIVE_INFINITY);
        assertEquals(45, stop[0]);
        assertEquals(Stopping.CAP, stop[1]);
    }

    @Test
    void theTimeBudgetStopsTheRoundsAtTheLastLookThatFits() {
        Stopping s = new Stopping(45, AB, Timing.FINE, SPENDING);
        // An 8% lead in 3% noise takes more than the first look; 20 s left at 6 s a round is less than the next look's 30 s.
        Object[] stop = run(s, ComparisonsTest.blocks(1, 45, 1.08, 0, 5), 20);
        assertEquals(Stopping.TIME, stop[1]);
        assertEquals(10, stop[0]);
    }

    @Test
    void theRunsComparisonsCarryTheLastLooksLevelAndTheRoundTheirOutcomeWasReachedFrom() {
        List<BlockRecord> all = ComparisonsTest.blocks(1, 45, 1.3, 0, 1);
        Stopping s = new Stopping(45, AB, Timing.FINE, SPENDING);
        Object[] stop = run(s, all, Double.POSITIVE_INFINITY);
        int at = (int) stop[0];
        List<BlockRecord> measured = all.stream().filter(b -> b.round() <= at).toList();
        RoundsStop st = new RoundsStop("items", null, at, 45, Stopping.DECIDED, s.finalLevel(at), s.looks(), 100);
        List<PairComparison> out = Stopping.reached(measured, AB, Timing.FINE, List.of(st));
        PairComparison t = out.stream().filter(c -> c.metricKind() == Metric.THROUGHPUT).findFirst().orElseThrow();
        assertEquals(st.level(), t.look().level());
        assertNotNull(t.look().reachedAt());
        assertTrue(t.look().reachedAt() <= at, t.toString());
        assertTrue(t.sentence().contains("; from round " + t.look().reachedAt()), t.sentence());
        // Without a stop (fixed rounds): 5%, nothing reached.
        PairComparison fixed = Stopping.reached(measured, AB, Timing.FINE, List.of()).stream().filter(c -> c.metricKind() == Metric.THROUGHPUT).findFirst().orElseThrow();
        assertNull(fixed.look().level());
        assertTrue(fixed.estimate().ci().get(0) > t.estimate().ci().get(0), "the look's interval is wider than a fixed 5% one: " + fixed.estimate().ci() + " " + t.estimate().ci());
    }
}
