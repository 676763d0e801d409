package dev.loomflux.lab.stats;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.random.Well19937c;

/** Seeded synthetic runs with a known true median (a normal's median is its mean). */
final class Samples {
    private Samples() {
    }

    static double[] normal(long seed, double mean, double sd, int n) {
        return new NormalDistribution(new Well19937c(seed), mean, sd).sample(n);
    }
}
