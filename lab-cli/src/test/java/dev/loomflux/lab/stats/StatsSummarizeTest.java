package dev.loomflux.lab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsSummarizeTest {
    @Test
    void oneSampleIsItsOwnIntervalBecauseThereIsNothingToResample() {
        assertEquals(new Estimate(1, 42.5, 42.5, 42.5, 42.5, 42.5), Stats.summarize(new double[] {42.5}));
    }

    @Test
    void medianAndRangeOfKnownSamples() {
        Estimate odd = Stats.summarize(new double[] {5, 1, 3});
        assertEquals(3, odd.n());
        assertEquals(3, odd.median());
        assertEquals(1, odd.min());
        assertEquals(5, odd.max());
        // Even n: the mean of the two middle values.
        assertEquals(2.5, Stats.summarize(new double[] {4, 1, 2, 3}).median());
    }

    @Test
    void intervalOfTenNormalSamplesIsNarrowAndHoldsTheTrueMedian() {
        Estimate e = Stats.summarize(Samples.normal(1, 100, 3, 10));
        assertTrue(e.ciLow() <= e.median() && e.median() <= e.ciHigh(), e.toString());
        assertTrue(e.min() <= e.ciLow() && e.ciHigh() <= e.max(), e.toString());
        assertTrue(e.ciLow() < 100 && 100 < e.ciHigh(), e.toString());
        // sd 3, n 10: the median's standard error is ~1.2, so a 95% interval ~5 wide, not 10.
        assertTrue(e.ciHigh() - e.ciLow() < 7, e.toString());
    }

    @Test
    void sameSamplesGiveTheSameIntervalEveryTime() {
        double[] s = Samples.normal(7, 50, 5, 8);
        assertEquals(Stats.summarize(s), Stats.summarize(s.clone()));
    }

    @Test
    void intervalsCoverTheTrueMedianAboutNineteenTimesInTwenty() {
        int runs = 200;
        int covered = 0;
        for (long seed = 1; seed <= runs; seed++) {
            Estimate e = Stats.summarize(Samples.normal(seed, 100, 3, 10));
            if (e.ciLow() <= 100 && 100 <= e.ciHigh()) {
                covered++;
            }
        }
        // A percentile bootstrap of a median at n = 10 is only approximately 95%.
        assertTrue(covered >= 0.88 * runs, covered + " of " + runs);
    }

    @Test
    void noSamplesOrNonFiniteSamplesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Stats.summarize(new double[0]));
        assertThrows(IllegalArgumentException.class, () -> Stats.summarize(new double[] {1, Double.NaN}));
    }
}
