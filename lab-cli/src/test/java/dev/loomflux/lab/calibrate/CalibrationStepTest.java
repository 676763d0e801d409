package dev.loomflux.lab.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.stats.Estimate;
import org.junit.jupiter.api.Test;

class CalibrationStepTest {
    private static CalibrationStep stub(double ratio) {
        return CalibrationStep.onStub("stub", 0, 0, 0, 0, 0, 0, new Estimate(1, ratio, ratio, ratio, ratio, ratio));
    }

    private static CalibrationStep target(double ratio) {
        return CalibrationStep.onTarget("t", 0, 0, 0, 0, 0, 0, new Estimate(1, ratio, ratio, ratio, ratio, ratio));
    }

    @Test
    void stubGoalIsAFloorOnTheRatio() {
        assertTrue(stub(0.80).met());
        assertFalse(stub(0.79).met());
        assertTrue(stub(1.2).met());
    }

    @Test
    void targetGoalIsWithinFivePercentEitherWay() {
        assertTrue(target(0.96).met());
        assertTrue(target(1.05).met());
        assertFalse(target(0.92).met());
        assertFalse(target(1.08).met());
    }

    @Test
    void theRatioIsTheMedianOfPerRoundRatiosNotTheRatioOfMedians() {
        // Round 3 ran while the machine was busy: both generators dropped, their ratio did not.
        Estimate r = CalibrationStep.ratios(new double[] {100, 102, 50}, new double[] {100, 100, 50});
        assertEquals(1.0, r.median(), 1e-12);
        assertEquals(3, r.n());
        assertTrue(r.ciLow() >= 1.0 && r.ciHigh() <= 1.02, r.toString());
    }

    @Test
    void theIntervalDecidesWhetherTheGoalIsConfirmed() {
        Estimate inside = new Estimate(5, 1.0, 0.9, 1.1, 0.97, 1.03);
        Estimate wide = new Estimate(5, 1.0, 0.8, 1.3, 0.88, 1.23);
        Estimate below = new Estimate(5, 0.5, 0.3, 0.7, 0.4, 0.6);
        Estimate wideLow = new Estimate(5, 0.7, 0.2, 0.9, 0.21, 0.84);
        assertEquals("met", CalibrationStep.onTarget("t", 0, 0, 0, 0, 0, 0, inside).status());
        assertEquals("unsure, median met", CalibrationStep.onTarget("t", 0, 0, 0, 0, 0, 0, wide).status());
        assertEquals("missed", CalibrationStep.onStub("s", 0, 0, 0, 0, 0, 0, below).status());
        assertEquals("unsure, median missed", CalibrationStep.onStub("s", 0, 0, 0, 0, 0, 0, wideLow).status());
        assertEquals("met (1 round)", target(1.0).status());
    }

    @Test
    void oneRoundHasNoInterval() {
        assertEquals("(1 round)", target(1.0).interval());
        assertTrue(target(1.0).line().contains("ratio 1.000 (median of 1 rounds, 95% CI (1 round); goal 0.95-1.05: met (1 round))"), target(1.0).line());
    }
}
