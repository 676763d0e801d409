package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Survival;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Deaths in whole shapes as a verdict: exact intervals, Fisher's test, never a winner between equals, and no ratio of a died block. */
class SurvivalVerdictsTest {
    private static final String OOM = "out of heap (heap 512m): java.lang.OutOfMemoryError: Java heap space: target exited in its block (code 3)";

    private static BlockRecord block(int round, String target, double rps, boolean died) {
        return BlockRecord.builder().scenario("chain").set(1).round(round).position(0).target(target).seconds(30).requests((long) (rps * 30))
                .responses((long) (rps * 30)).rps(rps).p50(100.0).p99(130.0).meanMs(101.0).inFlight(rps * 0.101).cpuMsPerRequest(0.5)
                .shape(new BlockRecord.Shape(400.0 + round, 300, null, died ? new BlockRecord.Death(OOM, 14 + round, 510.0, 6000 + round, 6100L) : null,
                        // lived through: back within twice its light-load p99 a round's number of seconds after the peak, but not in every third round
                        died ? null : new BlockRecord.Recovery(100, 20, round % 3 == 0 ? null : (double) round))).build();
    }

    /** {@code rounds} rounds in which a dies where {@code aDies} says and b where {@code bDies}. */
    private static List<BlockRecord> rounds(int rounds, boolean[] aDies, boolean[] bDies) {
        List<BlockRecord> out = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            out.add(block(r, "a", aDies[r - 1] ? 900 : 2400, aDies[r - 1]));
            out.add(block(r, "b", bDies[r - 1] ? 900 : 2400, bDies[r - 1]));
        }
        return out;
    }

    @Test
    void theExactIntervalsAndTestAreTheTextbooks() {
        // Clopper-Pearson 95%: 0 of 4 is 0-60.2%, 4 of 4 39.8-100%, 3 of 10 6.7-65.2% (Clopper and Pearson 1934; R's binom.test).
        assertEquals(0.6024, SurvivalVerdicts.clopperPearson(0, 4)[1], 1e-4);
        assertEquals(0.3976, SurvivalVerdicts.clopperPearson(4, 4)[0], 1e-4);
        assertEquals(0.0667, SurvivalVerdicts.clopperPearson(3, 10)[0], 1e-4);
        assertEquals(0.6525, SurvivalVerdicts.clopperPearson(3, 10)[1], 1e-4);
        // Fisher, two-sided: 4 of 4 against 0 of 4 is 2/70; 3 of 3 against 0 of 3 is 2/20, too few rounds to decide.
        assertEquals(2.0 / 70, SurvivalVerdicts.fisher(4, 4, 0, 4), 1e-9);
        assertEquals(0.1, SurvivalVerdicts.fisher(3, 3, 0, 3), 1e-9);
        assertEquals(1, SurvivalVerdicts.fisher(2, 4, 2, 4), 1e-9);
    }

    @Test
    void deathInEveryRoundAgainstNoneIsAWinnerSayingHowItDied() {
        boolean[] always = {true, true, true, true};
        boolean[] never = {false, false, false, false};
        List<Survival> all = SurvivalVerdicts.of(rounds(4, always, never), List.of("a", "b"));
        assertEquals(1, all.size());
        Survival s = all.get(0);
        Survival.Target a = s.targets().get(0);
        assertEquals(4, a.died());
        assertEquals(39.76, a.lowPct(), 0.01);
        assertEquals(100, a.highPct());
        assertEquals(1, a.causes().size());
        assertEquals(4, a.causes().get(OOM));
        assertEquals(16.5, a.diedAfterS());
        assertEquals(6003, a.threads()); // the median of 6001-6004, rounded
        assertEquals("a died in 4 of 4 rounds (95% CI 40-100%): " + OOM + ", 17 s into the shape, at 510 MB resident, 6003 threads, 6100 open files", a.describe());
        assertEquals(0, s.targets().get(1).died());
        Survival.Pair p = s.pairs().get(0);
        assertEquals(Survival.WINNER, p.outcome());
        assertEquals("b", p.winner());
        assertEquals("b survives more than a (p = 0.029)", p.describe());
        // Three rounds cannot decide it: 2/20.
        Survival three = SurvivalVerdicts.of(rounds(3, always, never), List.of("a", "b")).get(0);
        assertEquals(Survival.UNDECIDED, three.pairs().get(0).outcome());
    }

    @Test
    void noDeathIsNoSurvivalVerdictButEachTargetsPeaksAndRecovery() {
        boolean[] never = new boolean[6];
        Survival s = SurvivalVerdicts.of(rounds(6, never, never), List.of("a", "b")).get(0);
        assertFalse(s.someDied());
        assertEquals(Survival.NEITHER_DIED, s.pairs().get(0).outcome());
        Survival.Target a = s.targets().get(0);
        assertEquals(403.5, a.peakRssMb(), "the median of 401-406 MB");
        assertEquals(300, a.peakThreads());
        assertEquals(new Survival.Recovery(6, 4, 3.0), a.recovery(), "recovered in rounds 1, 2, 4 and 5: a median of 3 s");
        assertEquals("a recovered after the peak in 4 of 6 blocks, a median 3.0 s after it", a.recovers());
        assertEquals(List.of(), SurvivalVerdicts.of(rounds(6, never, never).stream().map(b -> b.withShape(null)).toList(), List.of("a", "b")),
                "no whole shape, no survival");
    }

    @Test
    void recoveryIsOverTheBlocksLivedThrough() {
        boolean[] firstTwo = {true, true, false, false, false, false};
        Survival.Target a = SurvivalVerdicts.of(rounds(6, firstTwo, new boolean[6]), List.of("a", "b")).get(0).targets().get(0);
        assertEquals(new Survival.Recovery(4, 2, 4.5), a.recovery(), "rounds 3-6 judged, recovered in 4 and 5 (3 and 6 not): " + a);
    }

    @Test
    void twoTargetsThatDieAlikeAreNeverASurvivalWinner() {
        // A/A: both die with the same chance in every round; over 2,000 experiments of 8 rounds Fisher's test (conservative on
        // counts this small) may name a winner in at most 5% of them, whatever the chance.
        Random rnd = new Random(7);
        for (double chance : new double[] {0.2, 0.5, 0.8}) {
            int winners = 0;
            int experiments = 2000;
            for (int e = 0; e < experiments; e++) {
                boolean[] a = new boolean[8];
                boolean[] b = new boolean[8];
                for (int r = 0; r < 8; r++) {
                    a[r] = rnd.nextDouble() < chance;
                    b[r] = rnd.nextDouble() < chance;
                }
                List<Survival> all = SurvivalVerdicts.of(rounds(8, a, b), List.of("a", "b"));
                if (!all.isEmpty() && all.get(0).pairs().get(0).outcome().equals(Survival.WINNER)) {
                    winners++;
                }
            }
            assertTrue(winners <= 0.05 * experiments, chance + ": " + winners + " winners of " + experiments);
        }
    }

    @Test
    void aDiedBlockTakesPartInNoOtherComparison() {
        // a dies in rounds 2 and 5 with a third of its throughput; the other 6 rounds are equal: no throughput verdict against a from
        // its died blocks, and the ratio counts 6 rounds.
        boolean[] a = {false, true, false, false, true, false, false, false};
        PairComparison t = Comparisons.of(rounds(8, a, new boolean[8]), List.of("a", "b")).stream()
                .filter(c -> c.metricKind() == Metric.THROUGHPUT).findFirst().orElseThrow();
        assertEquals(6, t.estimate().rounds(), t.toString());
        assertEquals(1.0, t.estimate().ratio(), 1e-9);
        assertNull(Comparisons.drifting(rounds(8, a, new boolean[8]), List.of("a", "b")).stream().findFirst().orElse(null));
    }
}
