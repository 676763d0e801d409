package dev.loomflux.lab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class VerdictTest {
    private static final Pattern AHEAD = Pattern.compile(
            "(\\S+) ahead by (-?[0-9.]+)% \\(95% CI (-?[0-9.]+)% to (-?[0-9.]+)%\\)");

    @Test
    void identicalSamplesGiveNoVerdict() {
        double[] s = Samples.normal(1, 100, 3, 10);
        Verdict v = Stats.compare("throughput", "mvc", s, "webflux", s.clone(), true);
        assertFalse(v.significant());
        assertNull(v.winner());
        assertEquals(0, v.diffPct());
        assertTrue(v.ciLowPct() < 0 && v.ciHighPct() > 0, v.toString());
        assertTrue(v.text().startsWith("no clear difference (95% CI -"), v.text());
    }

    @Test
    void twoDrawsFromOneDistributionGiveNoVerdict() {
        Verdict v = Stats.compare("throughput", "mvc", Samples.normal(1, 100, 3, 10), "webflux", Samples.normal(2, 100, 3, 10), true);
        assertFalse(v.significant(), v.toString());
        assertNull(v.winner());
        assertTrue(v.ciLowPct() < 0 && v.ciHighPct() > 0, v.toString());
    }

    @Test
    void falseVerdictsAreRareBetweenEqualDistributions() {
        int pairs = 200;
        int verdicts = 0;
        for (long seed = 1; seed <= pairs; seed++) {
            if (Stats.compare("t", "a", Samples.normal(seed, 100, 3, 10), "b", Samples.normal(seed + 10_000, 100, 3, 10), true).significant()) {
                verdicts++;
            }
        }
        // Nominal 5%; both the interval and the rank test must agree, so usually fewer.
        assertTrue(verdicts <= 0.08 * pairs, verdicts + " of " + pairs);
    }

    @Test
    void clearlySeparatedRunsNameTheWinnerWithTheTrueDifferenceInTheInterval() {
        Verdict v = Stats.compare("throughput", "mvc", Samples.normal(1, 100, 3, 10), "webflux", Samples.normal(2, 120, 3, 10), true);
        assertTrue(v.significant(), v.toString());
        assertEquals("webflux", v.winner());
        assertEquals("throughput", v.metric());
        assertTrue(v.diffPct() > 15 && v.diffPct() < 25, v.toString());
        assertTrue(v.ciLowPct() > 0, v.toString());
        assertTrue(v.ciLowPct() <= 20 && 20 <= v.ciHighPct(), v.toString());
        Matcher m = AHEAD.matcher(v.text());
        assertTrue(m.matches(), v.text());
        assertEquals("webflux", m.group(1));
        // B wins on a higher-is-better metric: the text's lead is the record's diff, rounded.
        assertEquals(v.diffPct(), Double.parseDouble(m.group(2)), 0.05);
        assertEquals(v.ciLowPct(), Double.parseDouble(m.group(3)), 0.05);
        assertEquals(v.ciHighPct(), Double.parseDouble(m.group(4)), 0.05);
    }

    @Test
    void aSeparatedLeadUnderFivePercentIsNoVerdictButSixIs() {
        // SweepIT's 5-user cell from CI: every run of mvc-10 above every run of mvc-vt, by 1%.
        double[] mvc10 = {97.0, 96.2, 97.0};
        double[] mvcVt = {96.0, 96.0, 96.0};
        Verdict small = Stats.compare("throughput", "mvc-vt", mvcVt, "mvc-10", mvc10, true);
        assertFalse(small.significant(), small.toString());
        assertNull(small.winner());
        assertTrue(small.ciLowPct() > 0, "the interval alone would have named a winner: " + small);
        assertTrue(small.text().startsWith("no clear difference (mvc-10 ahead by only 1.0%, under the 5.0%"), small.text());

        Verdict six = Stats.compare("throughput", "mvc-vt", mvcVt, "mvc-10", new double[] {101.8, 102.0, 102.1}, true);
        assertTrue(six.significant(), six.toString());
        assertEquals("mvc-10", six.winner());
        assertTrue(six.text().startsWith("mvc-10 ahead by 6.3%"), six.text());
        // Lower is better: a 4% lower latency is too small, 10% is a win.
        assertFalse(Stats.compare("p50", "a", new double[] {100, 100.5, 101}, "b", new double[] {96, 96.4, 96.8}, false).significant());
        assertEquals("b", Stats.compare("p50", "a", new double[] {100, 100.5, 101}, "b", new double[] {90, 90.4, 90.8}, false).winner());
    }

    @Test
    void lowerIsBetterFlipsTheWinnerButNotTheDifference() {
        double[] a = Samples.normal(1, 100, 3, 10);
        double[] b = Samples.normal(2, 120, 3, 10);
        Verdict higher = Stats.compare("p99", "mvc", a, "webflux", b, true);
        Verdict lower = Stats.compare("p99", "mvc", a, "webflux", b, false);
        assertTrue(lower.significant(), lower.toString());
        assertEquals("mvc", lower.winner());
        assertEquals(higher.diffPct(), lower.diffPct());
        assertEquals(higher.ciLowPct(), lower.ciLowPct());
        // mvc's latency is ~20/120 = 16.7% below webflux's: the lead is relative to the loser.
        Matcher m = AHEAD.matcher(lower.text());
        assertTrue(m.matches(), lower.text());
        assertEquals("mvc", m.group(1));
        double lead = Double.parseDouble(m.group(2));
        assertEquals(100 * (1 - 1 / (1 + lower.diffPct() / 100)), lead, 0.05);
        assertTrue(Double.parseDouble(m.group(3)) <= 16.7 && 16.7 <= Double.parseDouble(m.group(4)), lower.text());
    }

    @Test
    void aWinningOnThroughputHasANegativeDifference() {
        Verdict v = Stats.compare("throughput", "webflux", Samples.normal(2, 120, 3, 10), "mvc", Samples.normal(1, 100, 3, 10), true);
        assertEquals("webflux", v.winner());
        assertTrue(v.diffPct() < 0 && v.ciHighPct() < 0, v.toString());
        // -16.7% for mvc relative to webflux is webflux +20% relative to mvc.
        Matcher m = AHEAD.matcher(v.text());
        assertTrue(m.matches(), v.text());
        assertTrue(Double.parseDouble(m.group(3)) <= 20 && 20 <= Double.parseDouble(m.group(4)), v.text());
    }

    @Test
    void twoRepeatsPerSideAreTooFewEvenWhenFarApart() {
        Verdict v = Stats.compare("throughput", "mvc", new double[] {100, 101}, "webflux", new double[] {150, 151}, true);
        assertFalse(v.significant());
        assertNull(v.winner());
        assertEquals(50 / 100.5 * 100, v.diffPct(), 1e-9);
        assertTrue(v.text().startsWith("too few repeats for a verdict (n = 2 and 2, need 3 each; 95% CI "), v.text());
    }

    @Test
    void anIntervalThatExcludesZeroIsNotEnoughWhenTheRanksOverlap() {
        // Medians 100.5 vs 104.5 and the interval above 0, but B's 101 sits below A's 102 and 4 + 4 runs are few.
        double[] a = {101, 100, 102, 98};
        double[] b = {107, 104, 101, 105};
        Verdict v = Stats.compare("throughput", "a", a, "b", b, true);
        assertTrue(v.ciLowPct() > 0, v.toString());
        assertFalse(v.significant(), v.toString());
        assertNull(v.winner());
        assertEquals("no clear difference (95% CI 0.5% to 7.1%, but Mann-Whitney p = 0.061)", v.text());
    }

    @Test
    void aZeroBaselineHasNoRelativeDifference() {
        Verdict v = Stats.compare("errors", "mvc", new double[] {0, 0, 0}, "webflux", new double[] {1, 2, 3}, false);
        assertFalse(v.significant());
        assertTrue(Double.isNaN(v.diffPct()));
        assertEquals("no relative difference: the median of mvc is 0", v.text());
    }

    @Test
    void sameInputsGiveTheSameVerdict() {
        double[] a = Samples.normal(3, 100, 10, 5);
        double[] b = Samples.normal(4, 110, 10, 5);
        assertEquals(Stats.compare("t", "a", a, "b", b, true), Stats.compare("t", "a", a.clone(), "b", b.clone(), true));
    }
}
