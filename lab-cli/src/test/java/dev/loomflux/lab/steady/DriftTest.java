package dev.loomflux.lab.steady;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DriftTest {
    private static List<Point> measured(double from, double to, double canaryFrom, double canaryTo) {
        Random random = new Random(11);
        List<Point> out = new ArrayList<>();
        for (int t = 0; t < 15; t++) {
            double f = t / 14.0;
            double rps = (from + (to - from) * f) * (1 + 0.03 * random.nextGaussian());
            out.add(new Point(rps, 50_000 / rps, 0.0, 0.0, canaryFrom + (canaryTo - canaryFrom) * f));
        }
        return out;
    }

    @Test
    void aFlatWindowDoesNotDrift() {
        Drift d = Drift.of(measured(20_000, 20_000, 300, 300));
        assertFalse(d.drifting());
        assertTrue(Math.abs(d.rpsChangePct()) < 5, String.valueOf(d));
        assertNull(d.note());
    }

    @Test
    void aWindowThatFallsByAQuarterDriftsAndNamesTheMachine() {
        // The canary took 30% longer at the end: the machine slowed down, not the target.
        Drift d = Drift.of(measured(20_000, 15_000, 300, 390));
        assertTrue(d.drifting());
        assertTrue(d.rpsChangePct() < -15 && d.rpsChangePct() > -30, String.valueOf(d));
        assertTrue(d.machineChangePct() < -10, String.valueOf(d));
        assertTrue(d.note().contains("throughput -"), d.note());
        assertTrue(d.note().contains("CPU speed changed -"), d.note());
    }

    @Test
    void aFlatWindowBelowTheSteadyWarmupIsAStepNotTheSteadyState() {
        // As a webflux JVM did: steady at 2,000-2,500 rps, then 15 flat seconds at 1,000-1,200 (docs/steady-state.md, "The measured window: drift")
        List<Point> warmup = measured(2_300, 2_300, 300, 300);
        Drift d = Drift.of(measured(1_100, 1_100, 300, 300), warmup);
        assertTrue(d.drifting(), String.valueOf(d));
        assertTrue(d.fromWarmupPct() < -45 && d.fromWarmupPct() > -60, String.valueOf(d));
        assertTrue(d.note().startsWith("changed from the steady warmup to the measurement (the window vs the warmup's last 10 s: throughput -5"), d.note());
        assertFalse(d.note().contains("drifted while measured"), d.note());
        // Within the machine's 10 s noise of the warmup's end: the steady state it claimed
        Drift same = Drift.of(measured(2_100, 2_100, 300, 300), warmup);
        assertFalse(same.drifting(), String.valueOf(same));
        assertTrue(same.fromWarmupPct() < -5 && same.fromWarmupPct() > -15, String.valueOf(same));
        // No warmup before the window: nothing to compare with
        assertEquals(Double.NaN, Drift.of(measured(1_100, 1_100, 300, 300)).fromWarmupPct());
    }

    @Test
    void tooShortToTell() {
        Drift d = Drift.of(measured(20_000, 10_000, 300, 300).subList(0, 5));
        assertFalse(d.drifting());
        assertEquals(Double.NaN, d.rpsChangePct());
    }
}
