package dev.loomflux.lab.steady;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TrendTest {
    @Test
    void aLineHasItsSlopeAndIsSignificant() {
        // 100, 102, ..., 118: slope 2 per second, 18 over the series, median 109.
        double[] y = new double[10];
        for (int i = 0; i < y.length; i++) {
            y[i] = 100 + 2 * i;
        }
        Trend t = Trend.of(y);
        assertEquals(18.0 / 109 * 100, t.changePct(), 1e-9);
        // S = 45, Var = 10*9*25/18 = 125, z = 44/sqrt(125) = 3.94.
        assertEquals(8.3e-5, t.p(), 1e-5);
        assertTrue(t.exceeds(10, 0.05));
    }

    @Test
    void oneOutlierDoesNotMakeATrend() {
        double[] y = {100, 101, 99, 100, 102, 98, 100, 101, 99, 400};
        Trend t = Trend.of(y);
        assertTrue(Math.abs(t.changePct()) < 3, String.valueOf(t));
        assertTrue(t.p() > 0.05, String.valueOf(t));
    }

    @Test
    void tiesAreCorrected() {
        // Latency percentiles repeat (HdrHistogram buckets); all equal is no trend at all.
        Trend t = Trend.of(new double[] {1.2, 1.2, 1.2, 1.2, 1.2, 1.2});
        assertEquals(0, t.changePct());
        assertEquals(1, t.p());
    }
}
