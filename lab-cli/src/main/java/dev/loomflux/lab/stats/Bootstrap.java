package dev.loomflux.lab.stats;

import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * Percentile bootstrap of the median. Each instance starts from the same seed, so a report built
 * twice from the same samples shows the same intervals; the seed is arbitrary, not tuned.
 */
final class Bootstrap {
    static final long SEED = 20_261_122L;
    /** Enough that the 2.5% / 97.5% quantiles move by well under 0.1% between seeds. */
    static final int RESAMPLES = 10_000;

    private final RandomGenerator rng = new Well19937c(SEED);
    private final Median median = new Median();

    /** The medians of {@link #RESAMPLES} resamples (with replacement, same size) of {@code sample}. */
    double[] medians(double[] sample) {
        double[] out = new double[RESAMPLES];
        double[] resample = new double[sample.length];
        for (int r = 0; r < RESAMPLES; r++) {
            for (int i = 0; i < resample.length; i++) {
                resample[i] = sample[rng.nextInt(sample.length)];
            }
            out[r] = median.evaluate(resample);
        }
        return out;
    }

    static double median(double[] sample) {
        return new Median().evaluate(sample);
    }

    /** {@code p} in (0, 100]; R-7 is the usual linear interpolation between order statistics. */
    static double percentile(double[] values, double p) {
        return new Percentile().withEstimationType(Percentile.EstimationType.R_7).evaluate(values, p);
    }
}
