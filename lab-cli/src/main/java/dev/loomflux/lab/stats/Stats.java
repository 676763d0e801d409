package dev.loomflux.lab.stats;

import java.util.Locale;
import java.util.Objects;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * Statistics over repeated runs ({@code --repeat N}): a median with its 95% confidence interval,
 * and a verdict on whether one target beats another. Why these methods: docs/statistics.md.
 */
public final class Stats {
    /** Fewer samples per side than this and no verdict is given: a rank test cannot reach p < 0.05. */
    public static final int MIN_REPEATS = 3;
    public static final double ALPHA = 0.05;
    /**
     * The smallest lead the lab calls a win, in percent. Repeats in one session can separate a 1%
     * difference perfectly (mvc-10 97.0 vs mvc-vt 96.0 rps, both bound by a 50 ms downstream: SweepIT
     * in CI), but medians of the same --repeat 3 run in two sessions moved 1-21% apart (README), so a
     * smaller lead would not survive a rerun and is no answer to "which model".
     */
    public static final double MIN_EFFECT_PCT = 5;
    private static final double LOW_PCT = 100 * ALPHA / 2;
    private static final double HIGH_PCT = 100 * (1 - ALPHA / 2);

    private Stats() {
    }

    /** Median, range and a 95% bootstrap interval of the median; see {@link Estimate} for n = 1. */
    public static Estimate summarize(double[] samples) {
        check("samples", samples);
        double median = Bootstrap.median(samples);
        if (samples.length == 1) {
            return new Estimate(1, median, median, median, median, median);
        }
        double[] medians = new Bootstrap().medians(samples);
        return new Estimate(samples.length, median, StatUtils.min(samples), StatUtils.max(samples),
                Bootstrap.percentile(medians, LOW_PCT), Bootstrap.percentile(medians, HIGH_PCT));
    }

    /**
     * Compares B with A. The interval is a bootstrap of the relative difference of medians (A and B
     * resampled independently); a verdict also needs the Mann-Whitney U test, which looks at every
     * sample's rank rather than only the middle one.
     *
     * @param higherIsBetter true for throughput, false for latency
     */
    public static Verdict compare(String metric, String nameA, double[] a, String nameB, double[] b, boolean higherIsBetter) {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(nameA, "nameA");
        Objects.requireNonNull(nameB, "nameB");
        check(nameA, a);
        check(nameB, b);
        double medianA = Bootstrap.median(a);
        double medianB = Bootstrap.median(b);
        if (medianA == 0) {
            return new Verdict(metric, null, Double.NaN, Double.NaN, Double.NaN, false,
                    "no relative difference: the median of " + nameA + " is 0");
        }
        Bootstrap bootstrap = new Bootstrap();
        double[] bootA = bootstrap.medians(a);
        double[] bootB = bootstrap.medians(b);
        double[] diffs = new double[bootA.length];
        for (int i = 0; i < diffs.length; i++) {
            diffs[i] = relativePct(bootA[i], bootB[i]);
        }
        double diff = relativePct(medianA, medianB);
        double low = Bootstrap.percentile(diffs, LOW_PCT);
        double high = Bootstrap.percentile(diffs, HIGH_PCT);
        String interval = interval(low, high);

        if (a.length < MIN_REPEATS || b.length < MIN_REPEATS) {
            return noVerdict(metric, diff, low, high, String.format(Locale.ROOT,
                    "too few repeats for a verdict (n = %d and %d, need %d each; %s)", a.length, b.length, MIN_REPEATS, interval));
        }
        if (low <= 0 && high >= 0) {
            return noVerdict(metric, diff, low, high, "no clear difference (" + interval + ")");
        }
        double p = new MannWhitneyUTest().mannWhitneyUTest(a, b);
        if (p >= ALPHA) {
            return noVerdict(metric, diff, low, high, String.format(Locale.ROOT,
                    "no clear difference (%s, but Mann-Whitney p = %.3f)", interval, p));
        }

        boolean bHigher = low > 0;
        boolean bWins = bHigher == higherIsBetter;
        double[] bootWinner = bWins ? bootB : bootA;
        double[] bootLoser = bWins ? bootA : bootB;
        // The text states the winner's lead over the loser, in the better direction, from the same
        // resamples; the record's diff fields stay "B relative to A" whoever wins.
        double[] leads = new double[bootWinner.length];
        for (int i = 0; i < leads.length; i++) {
            leads[i] = lead(bootLoser[i], bootWinner[i], higherIsBetter);
        }
        double lead = bWins ? lead(medianA, medianB, higherIsBetter) : lead(medianB, medianA, higherIsBetter);
        String winner = bWins ? nameB : nameA;
        String leadInterval = interval(Bootstrap.percentile(leads, LOW_PCT), Bootstrap.percentile(leads, HIGH_PCT));
        if (lead < MIN_EFFECT_PCT) {
            return noVerdict(metric, diff, low, high, String.format(Locale.ROOT,
                    "no clear difference (%s ahead by only %s, under the %s the lab calls a difference; %s)", winner, pct(lead), pct(MIN_EFFECT_PCT), leadInterval));
        }
        String text = String.format(Locale.ROOT, "%s ahead by %s (%s)", winner, pct(lead), leadInterval);
        return new Verdict(metric, winner, diff, low, high, true, text);
    }

    private static Verdict noVerdict(String metric, double diff, double low, double high, String text) {
        return new Verdict(metric, null, diff, low, high, false, text);
    }

    /** (to - from) / from in percent; a zero base (a resample of a metric such as errors) gives +-infinity, never NaN. */
    private static double relativePct(double from, double to) {
        if (from == 0) {
            return to == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, to);
        }
        return (to - from) / from * 100;
    }

    private static double lead(double loser, double winner, boolean higherIsBetter) {
        double d = relativePct(loser, winner);
        return higherIsBetter ? d : -d;
    }

    private static String interval(double low, double high) {
        return "95% CI " + pct(low) + " to " + pct(high);
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.1f%%", v);
    }

    private static void check(String what, double[] samples) {
        if (samples == null || samples.length == 0) {
            throw new IllegalArgumentException(what + ": no samples");
        }
        for (double v : samples) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException(what + ": sample " + v + " is not a finite number");
            }
        }
    }
}
