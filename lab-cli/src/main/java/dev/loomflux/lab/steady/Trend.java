package dev.loomflux.lab.steady;

import java.util.Arrays;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * A monotonic trend in a short per-second series: its size from the Theil-Sen slope (the median of
 * all pairwise slopes, so one outlier second cannot fake a trend) and its significance from the
 * Mann-Kendall test (normal approximation with the tie correction: latency percentiles repeat).
 *
 * @param changePct the slope over the whole series relative to its median, in percent
 * @param p         two-sided p value of "no monotonic trend"
 */
public record Trend(double changePct, double p) {
    private static final NormalDistribution NORMAL = new NormalDistribution();

    public static Trend of(double[] y) {
        int n = y.length;
        if (n < 3) {
            return new Trend(0, 1);
        }
        double[] slopes = new double[n * (n - 1) / 2];
        long s = 0;
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                slopes[k++] = (y[j] - y[i]) / (j - i);
                s += Long.signum(Double.compare(y[j], y[i]));
            }
        }
        double median = new Median().evaluate(y);
        double change = median == 0 ? 0 : new Median().evaluate(slopes) * (n - 1) / Math.abs(median) * 100;
        double variance = (n * (n - 1.0) * (2 * n + 5) - ties(y)) / 18;
        double z = variance <= 0 || s == 0 ? 0 : (s - Math.signum(s)) / Math.sqrt(variance);
        return new Trend(change, 2 * (1 - NORMAL.cumulativeProbability(Math.abs(z))));
    }

    /** Sum of t(t-1)(2t+5) over groups of t equal values. */
    private static double ties(double[] y) {
        double[] sorted = y.clone();
        Arrays.sort(sorted);
        double sum = 0;
        int t = 1;
        for (int i = 1; i <= sorted.length; i++) {
            if (i < sorted.length && sorted[i] == sorted[i - 1]) {
                t++;
            } else {
                sum += t * (t - 1.0) * (2 * t + 5);
                t = 1;
            }
        }
        return sum;
    }

    /** Significant and larger than {@code maxPct} either way. */
    public boolean exceeds(double maxPct, double alpha) {
        return p < alpha && Math.abs(changePct) > maxPct;
    }
}
