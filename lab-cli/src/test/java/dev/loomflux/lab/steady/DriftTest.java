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
    void tooShortToTell() {
        Drift d = Drift.of(measured(20_000, 10_000, 300, 300).subList(0, 5));
        assertFalse(d.drifting());
        assertEquals(Double.NaN, d.rpsChangePct());
    }
}
