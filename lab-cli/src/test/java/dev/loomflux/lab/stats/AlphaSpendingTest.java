package dev.loomflux.lab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The looks' levels: the published boundaries, and a simulation of the looks that takes every one of them. */
class AlphaSpendingTest {
    private static final double[] FIVE = {0.2, 0.4, 0.6, 0.8, 1.0};

    @Test
    void fiveEqualLooksGiveLanAndDeMetsObrienFlemingBoundaries() {
        // Jennison and Turnbull (2000), Table 7.6 / gsDesign's sfLDOF: 4.877, 3.357, 2.680, 2.290, 2.031 for two-sided 5%.
        double[] expected = {4.877, 3.357, 2.680, 2.290, 2.031};
        double[] levels = new AlphaSpending().levels(0.05, FIVE);
        for (int k = 0; k < FIVE.length; k++) {
            assertEquals(expected[k], AlphaSpending.z(levels[k]), 0.01, "look " + (k + 1));
        }
    }

    @Test
    void allLooksTogetherRejectAtMostTheirAlphaAndTheLastLookNearlyAll() {
        double[] fractions = {10 / 45.0, 15 / 45.0, 20 / 45.0, 25 / 45.0, 30 / 45.0, 35 / 45.0, 40 / 45.0, 1};
        double[] levels = new AlphaSpending().levels(0.05, fractions);
        double[] z = new double[levels.length];
        for (int k = 0; k < levels.length; k++) {
            z[k] = AlphaSpending.z(levels[k]);
        }
        // Brownian paths under no difference: a path crosses a look's boundary with probability alpha over all looks.
        Random rnd = new Random(7);
        int paths = 100_000;
        int crossed = 0;
        for (int p = 0; p < paths; p++) {
            double w = 0;
            double t = 0;
            for (int k = 0; k < fractions.length; k++) {
                w += Math.sqrt(fractions[k] - t) * rnd.nextGaussian();
                t = fractions[k];
                if (Math.abs(w / Math.sqrt(t)) >= z[k]) {
                    crossed++;
                    break;
                }
            }
        }
        double rate = crossed / (double) paths;
        assertEquals(0.05, rate, 0.004, "crossed " + crossed + " of " + paths);
        assertTrue(levels[levels.length - 1] > 0.035 && levels[levels.length - 1] < 0.05, "the last look keeps most of 5%: " + levels[levels.length - 1]);
        assertTrue(levels[0] < 1e-5, "the first look spends almost nothing: " + levels[0]);
    }

    @Test
    void aSingleLookAtTheEndIsTheFixedLevel() {
        assertEquals(0.05, new AlphaSpending().levels(0.05, new double[] {1})[0], 1e-9);
    }
}
