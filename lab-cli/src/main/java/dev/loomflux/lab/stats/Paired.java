package dev.loomflux.lab.stats;

import java.util.Arrays;
import java.util.Locale;

/**
 * One metric of two targets measured in the same rounds: the ratio a / b from the per-round ratios,
 * with a 95% confidence interval, and what it supports. Each round measured both targets within
 * seconds of each other, so a change of the machine's speed that lasts a round cancels in the
 * round's ratio; what is left varies from round to round and is what the interval describes.
 *
 * <p>The estimate is the Hodges-Lehmann estimate of the log ratios (the median of all pairwise
 * means) and the interval the distribution-free one that goes with it, from the exact Wilcoxon
 * signed-rank distribution (Hollander and Wolfe, Nonparametric Statistical Methods, 3.2-3.3): it
 * assumes only that a round's log ratio is symmetric about the true one, not that it is normal, and
 * one round in which a block fell by half moves it by one rank, not by half.
 *
 * <p>That interval counts every round as an independent draw. When the ratios wander instead, a run of
 * rounds high, then a run low (a JIT still compiling in one JVM, then the other), neighbouring rounds
 * repeat each other and the rounds are worth fewer: the interval is widened by the factor that a
 * lag-1 autocorrelation r makes of a mean's error, sqrt((1 + r) / (1 - r)), where r is beyond what
 * independent rounds give by chance.
 *
 * @param ratio    a / b, the estimate
 * @param low      lower end of the 95% interval of a / b
 * @param high     upper end
 * @param rounds   rounds with a figure for both
 * @param widening how much wider the interval was made for rounds that repeat their neighbours; 1 for none
 * @param resolution how far every round's log ratio may be off the same way, added to both ends of the interval; 0 for none
 * @param jvms     the part of the interval's half-width (in logs) for the JVMs' own levels, added in quadrature; 0 for none
 */
public record Paired(double ratio, double low, double high, int rounds, Decision outcome, double widening, double resolution, double jvms) {
    /** What the interval supports, given which way the metric is better. */
    public enum Decision {
        /** The whole interval lies beyond the minimum effect in a's favour. */
        A,
        /** In b's favour. */
        B,
        /** The whole interval lies within the minimum effect either way: the two are the same, within it. */
        EQUIVALENT,
        /** Neither: more rounds might tell. */
        UNDECIDED
    }

    /** Fewer rounds than this have no 95% interval at all: with 5, even all five in one direction has p = 0.0625. */
    public static final int MIN_ROUNDS = 6;
    /** Beyond this many rounds the estimate of rounds needed is not worth stating. */
    static final int MAX_ROUNDS_ESTIMATE = 500;
    private static final double MARGIN = Math.log1p(Stats.MIN_EFFECT_PCT / 100);
    /**
     * One-sided 95% bound of a lag-1 autocorrelation of n independent rounds, times sqrt(n). Over 195 series of
     * per-round ratios stored here (20-90 rounds, every metric), the median r was 0.01-0.03 and 7-14% were beyond
     * this bound; an A/A run whose JVMs still compiled had r = 0.53 on CPU per request over 20 rounds.
     */
    static final double SERIAL_BOUND = 1.645;
    /** A ceiling on r, so that a run of identical ratios does not widen the interval without end (x4.4). */
    private static final double MAX_SERIAL = 0.9;

    /**
     * @param a              a's figure per round
     * @param b              b's figure in the same rounds
     * @param higherIsBetter true for throughput, false for latency and CPU per request
     */
    public static Paired of(double[] a, double[] b, boolean higherIsBetter) {
        return of(a, b, higherIsBetter, 0, 0);
    }

    /**
     * @param resolution a bound on how far each round's ratio may be off in a way that does not cancel over
     *                   rounds (a share: 0.05 for 5%), such as counting whole requests; the interval covers it
     * @param jvms a 95% half-width, in logs, for what the rounds cannot see: each JVM's own level, which
     *             holds for the whole run; added to the rounds' half-widths in quadrature
     */
    public static Paired of(double[] a, double[] b, boolean higherIsBetter, double resolution, double jvms) {
        return of(a, b, higherIsBetter, resolution, jvms, Stats.ALPHA);
    }

    /**
     * At a two-sided level other than 5%: a look's of a sequential run ({@link AlphaSpending}); {@code jvms} is then a
     * half-width at that level too.
     */
    public static Paired of(double[] a, double[] b, boolean higherIsBetter, double resolution, double jvms, double level) {
        return of(a, b, higherIsBetter, resolution, jvms, level, new double[a.length]);
    }

    /**
     * With a bound per round, in logs, on how far that round's ratio may be off either way, such as a JIT compiling over its
     * blocks: the lower end is the one the rounds give with each moved down by its bound, the upper end with each moved up.
     * The interval's ends are order statistics of the rounds' pairwise means, which never fall when a round rises, so the
     * interval the unmoved rounds would give lies within it, whichever way each was off.
     */
    public static Paired of(double[] a, double[] b, boolean higherIsBetter, double resolution, double jvms, double level, double[] offBy) {
        if (a.length != b.length || offBy.length != a.length) {
            throw new IllegalArgumentException("rounds differ: " + a.length + ", " + b.length + " and " + offBy.length);
        }
        double[] logs = new double[a.length];
        double[] off = new double[a.length];
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] > 0 && b[i] > 0 && Double.isFinite(a[i]) && Double.isFinite(b[i])) {
                off[n] = offBy[i];
                logs[n++] = Math.log(a[i] / b[i]);
            }
        }
        logs = Arrays.copyOf(logs, n);
        off = Arrays.copyOf(off, n);
        if (n == 0) {
            return new Paired(Double.NaN, Double.NaN, Double.NaN, 0, Decision.UNDECIDED, 1, 0, 0);
        }
        double[] walsh = walshAverages(logs);
        double estimate = median(walsh);
        // Without a bound (every comparison but those of too few quiet rounds) the ends are the pairwise means' own.
        boolean bounded = Arrays.stream(off).anyMatch(o -> o != 0);
        double[] down = bounded ? walshAverages(moved(logs, off, -1)) : walsh;
        double[] up = bounded ? walshAverages(moved(logs, off, 1)) : walsh;
        int k = lowerRank(n, level);
        if (k == 0) {
            // Too few rounds for any interval at the level: say so with the widest honest one, the range.
            return new Paired(Math.exp(estimate), Math.exp(down[0]), Math.exp(up[up.length - 1]), n, Decision.UNDECIDED, 1, 0, 0);
        }
        double widening = widening(logs);
        double res = Math.log1p(resolution);
        double lo = estimate - Math.hypot((estimate - down[k - 1]) * widening, jvms) - res;
        double hi = estimate + Math.hypot((up[up.length - k] - estimate) * widening, jvms) + res;
        return new Paired(Math.exp(estimate), Math.exp(lo), Math.exp(hi), n, outcome(lo, hi, higherIsBetter), widening, res, jvms);
    }

    private static double[] moved(double[] logs, double[] off, int sign) {
        double[] out = new double[logs.length];
        for (int i = 0; i < logs.length; i++) {
            out[i] = logs[i] + sign * off[i];
        }
        return out;
    }

    /**
     * The shift between paired values in their own unit (a - b per round, not a ratio): the Hodges-Lehmann estimate and its
     * distribution-free interval at {@code alpha}, widened as {@link #of} widens for rounds that repeat their neighbours, and
     * by {@code jvms}, a half-width at the same alpha, in quadrature.
     *
     * @return {estimate, low, high}; low and high NaN when the rounds are too few for any interval at alpha, all NaN without one
     */
    public static double[] shift(double[] differences, double alpha, double jvms) {
        if (differences.length == 0) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        double[] walsh = walshAverages(differences);
        double estimate = median(walsh);
        int k = lowerRank(differences.length, alpha);
        if (k == 0) {
            return new double[] {estimate, Double.NaN, Double.NaN};
        }
        double widening = widening(differences);
        return new double[] {estimate, estimate - Math.hypot((estimate - walsh[k - 1]) * widening, jvms),
                estimate + Math.hypot((walsh[walsh.length - k] - estimate) * widening, jvms)};
    }

    /** sqrt((1 + r) / (1 - r)) for the values' lag-1 autocorrelation r in the order given, when r is beyond chance; else 1. */
    static double widening(double[] x) {
        double r = lag1(x);
        if (r * Math.sqrt(x.length) <= SERIAL_BOUND) {
            return 1;
        }
        // The sample r of n rounds runs low by about (1 + 3r) / n (Kendall): r = 0.6 reads 0.46 on average over 20 rounds.
        r = Math.min(r + (1 + 3 * r) / x.length, MAX_SERIAL);
        return Math.sqrt((1 + r) / (1 - r));
    }

    /** The values' lag-1 autocorrelation in the order given; 0 without spread. */
    public static double lag1(double[] x) {
        double mean = Arrays.stream(x).average().orElse(0);
        double var = 0;
        double cov = 0;
        for (int i = 0; i < x.length; i++) {
            var += (x[i] - mean) * (x[i] - mean);
            if (i > 0) {
                cov += (x[i] - mean) * (x[i - 1] - mean);
            }
        }
        return var > 0 ? cov / var : 0;
    }

    private static Decision outcome(double lo, double hi, boolean higherIsBetter) {
        if (lo > MARGIN) {
            return higherIsBetter ? Decision.A : Decision.B;
        }
        if (hi < -MARGIN) {
            return higherIsBetter ? Decision.B : Decision.A;
        }
        if (lo > -MARGIN && hi < MARGIN) {
            return Decision.EQUIVALENT;
        }
        return Decision.UNDECIDED;
    }

    /**
     * Rounds that would likely settle an undecided comparison, were the spread of the ratios the
     * same: the interval narrows as one over the square root of the rounds. -1 when it is decided,
     * or when the estimate sits so near the minimum effect that no number of rounds is worth stating.
     */
    public int roundsToSettle() {
        if (outcome != Decision.UNDECIDED || rounds < MIN_ROUNDS) {
            return outcome != Decision.UNDECIDED ? -1 : MIN_ROUNDS * 2;
        }
        // The interval is not symmetric: scale the side that has to clear the line. Only the rounds' part of it
        // shrinks with rounds; the resolution and the JVMs' part stay, and an estimate within them of the line is
        // not worth rounds.
        double c = Math.log(ratio);
        double lo = roundsPart(c - Math.log(low) - resolution);
        double hi = roundsPart(Math.log(high) - c - resolution);
        double scale;
        if (c > MARGIN) {
            scale = lo / roundsPart(c - MARGIN - resolution);
        } else if (c < -MARGIN) {
            scale = hi / roundsPart(-MARGIN - c - resolution);
        } else {
            scale = Math.max(hi / roundsPart(MARGIN - c - resolution), lo / roundsPart(c + MARGIN - resolution));
        }
        if (!Double.isFinite(scale) || scale <= 0) {
            return -1;
        }
        double needed = Math.ceil(rounds * scale * scale);
        return needed > MAX_ROUNDS_ESTIMATE ? -1 : (int) Math.max(rounds + 1, needed);
    }

    /** What of a half-width the rounds make, the JVMs' part taken out (they add in quadrature); NaN when none is left. */
    private double roundsPart(double halfWidth) {
        double left = halfWidth * halfWidth - jvms * jvms;
        return halfWidth > 0 && left > 0 ? Math.sqrt(left) : Double.NaN;
    }

    /** "1.23 (95% CI 1.18-1.29, 45 rounds)". */
    public String describe() {
        return String.format(Locale.ROOT, "%.3f (95%% CI %.3f-%.3f, %d rounds%s%s%s)", ratio, low, high, rounds,
                widening > 1 ? String.format(Locale.ROOT, ", widened x%.2f for rounds that repeat their neighbours", widening) : "",
                resolution > 0 ? String.format(Locale.ROOT, ", +-%.1f%% for counting whole requests", Math.expm1(resolution) * 100) : "",
                jvms > 0 ? String.format(Locale.ROOT, ", +-%.1f%% for the JVMs' own levels", Math.expm1(jvms) * 100) : "");
    }

    /** All (x_i + x_j) / 2 for i <= j, sorted. */
    static double[] walshAverages(double[] x) {
        double[] w = new double[x.length * (x.length + 1) / 2];
        int k = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = i; j < x.length; j++) {
                w[k++] = (x[i] + x[j]) / 2;
            }
        }
        Arrays.sort(w);
        return w;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * The largest k such that P(T+ <= k - 1) <= alpha / 2 under the null, T+ being the Wilcoxon
     * signed-rank statistic of n values: the interval from the k-th smallest to the k-th largest
     * Walsh average then covers the centre with probability at least 1 - alpha. 0 when none does.
     */
    static int lowerRank(int n, double alpha) {
        int max = n * (n + 1) / 2;
        // P(T+ = t): each rank is in the positive set or not, with probability 1/2 each.
        double[] p = new double[max + 1];
        p[0] = 1;
        for (int r = 1; r <= n; r++) {
            for (int t = Math.min(max, r * (r + 1) / 2); t >= 0; t--) {
                p[t] = (p[t] + (t >= r ? p[t - r] : 0)) / 2;
            }
        }
        double cdf = 0;
        int k = 0;
        for (int t = 0; t <= max; t++) {
            cdf += p[t];
            if (cdf > alpha / 2 + 1e-12) {
                break;
            }
            k = t + 1;
        }
        return k;
    }
}
