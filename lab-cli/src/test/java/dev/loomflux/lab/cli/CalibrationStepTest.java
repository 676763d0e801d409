package dev.loomflux.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CalibrationStepTest {
    @Test
    void stubGoalIsAFloorOnTheRatio() {
        assertTrue(CalibrationStep.onStub("stub", 80_000, 95, 0, 100_000, 99, 0).met());
        assertFalse(CalibrationStep.onStub("stub", 79_000, 95, 0, 100_000, 99, 0).met());
        assertTrue(CalibrationStep.onStub("stub", 120_000, 95, 0, 100_000, 99, 0).met());
    }

    @Test
    void targetGoalIsWithinFivePercentEitherWay() {
        assertEquals(0.96, CalibrationStep.onTarget("t", 24_000, 50, 0, 25_000, 40, 0).ratio(), 1e-9);
        assertTrue(CalibrationStep.onTarget("t", 24_000, 50, 0, 25_000, 40, 0).met());
        assertFalse(CalibrationStep.onTarget("t", 23_000, 50, 0, 25_000, 40, 0).met());
        assertFalse(CalibrationStep.onTarget("t", 27_000, 50, 0, 25_000, 40, 0).met());
    }

    @Test
    void noWrkThroughputIsNoRatio() {
        CalibrationStep s = CalibrationStep.onTarget("t", 24_000, 50, 0, 0, 0, 0);
        assertTrue(Double.isNaN(s.ratio()));
        assertFalse(s.met());
    }
}
