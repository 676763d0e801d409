package dev.loomflux.lab.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The levels of a group-sequential design's looks: Lan and DeMets' alpha spending with the O'Brien-Fleming-type function
 * alpha(t) = 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)) (Lan and DeMets, Biometrika 1983; Jennison and Turnbull, Group Sequential
 * Methods, 2000, 7.2). At information fraction t (rounds so far over the cap) the looks together have spent alpha(t) of the
 * error rate, however many looks there were and wherever they fell, as long as where they fell does not depend on the data.
 * Each look's two-sided nominal level comes from the joint law of the looks' statistics (Brownian motion at the fractions),
 * integrated numerically over a grid, as Armitage, McPherson and Rowe (1969) did: what look k may spend is
 * alpha(t_k) - alpha(t_(k-1)), taken where no earlier look stopped.
 *
 * <p>Intervals at these levels are repeated confidence intervals (Jennison and Turnbull, JRSS B 1989): all of them cover
 * the truth together with probability 1 - alpha, so a run may stop at any look, for any reason, and what its last interval
 * says keeps that rate. O'Brien-Fleming's function spends little early: the last look's level stays near alpha (0.038 of
 * 0.05 with looks at 10, 15, ..., 45 of 45 rounds), so a run that goes to the cap decides almost what a fixed run of as many
 * rounds decides, while a lead far beyond the minimum effect clears even an early look's strict level
 * (docs/statistics.md, "Stopping when the answer is known").
 */
public final class AlphaSpending {
    private static final NormalDistribution NORMAL = new NormalDistribution(null, 0, 1);
    private static final int MAX_KNOWN = 1024;
    /** Grid step on the Brownian scale (W(1) ~ N(0, 1)), and smaller for close looks: at least 20 points per sd of a step. */
    private static final double MAX_STEP = 0.01;

    /**
     * Levels already integrated, by alpha and fractions: one call takes about 0.1 s on this machine, a look makes two, and a run's
     * looks fall at the same fractions every time (its planned rounds over its cap); StoppingSimulationTest's thousands of runs
     * would spend their time here, so they share one instance. The same values, only not integrated again.
     */
    private final Map<List<Double>, double[]> known = new ConcurrentHashMap<>();

    /**
     * What the looks up to fraction t have spent of a two-sided {@code alpha}: each side spends O'Brien-Fleming's function of
     * its alpha / 2, as gsDesign's sfLDOF and ldbounds do (with five equal looks: 4.877, 3.357, 2.680, 2.290, 2.031). Lan and
     * DeMets' own two-sided form, 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)) of the whole alpha, spends more early and leaves the
     * last of eight looks at 10-45 rounds 0.034 instead of 0.038: early looks can hardly use it (ten rounds give the Wilcoxon
     * interval no end below 0.002).
     */
    public static double spent(double alpha, double t) {
        if (t <= 0) {
            return 0;
        }
        double perSide = alpha / 2;
        return t >= 1 ? alpha : 2 * (2 * (1 - NORMAL.cumulativeProbability(NORMAL.inverseCumulativeProbability(1 - perSide / 2) / Math.sqrt(t))));
    }

    /**
     * Each look's two-sided nominal level: an interval at level[k] at look k, and every look's together, cover the truth with
     * probability at least 1 - alpha.
     *
     * @param fractions the looks' information fractions, rising, each in (0, 1]
     */
    public double[] levels(double alpha, double[] fractions) {
        List<Double> key = new ArrayList<>(fractions.length + 1);
        key.add(alpha);
        for (double f : fractions) {
            key.add(f);
        }
        double[] levels = known.get(key);
        if (levels == null) {
            levels = integrate(alpha, fractions);
            if (known.size() >= MAX_KNOWN) {
                known.clear();
            }
            known.put(key, levels);
        }
        return levels.clone();
    }

    /** {@link #levels}, integrated. */
    private static double[] integrate(double alpha, double[] fractions) {
        double[] out = new double[fractions.length];
        double previous = 0;
        for (double t : fractions) {
            if (!(t > previous) || t > 1) {
                throw new IllegalArgumentException("fractions must rise within (0, 1]: " + java.util.Arrays.toString(fractions));
            }
            previous = t;
        }
        // The density of W(t) over the continuation region of the looks so far, on a grid; null before the first look.
        double[] grid = null;
        double[] density = null;
        double step = MAX_STEP;
        for (int k = 1; k < fractions.length; k++) {
            step = Math.min(step, Math.sqrt(fractions[k] - fractions[k - 1]) / 20);
        }
        double before = 0;
        for (int k = 0; k < fractions.length; k++) {
            double t = fractions[k];
            double spend = spent(alpha, t) - spent(alpha, before);
            double z;
            if (grid == null) {
                z = NORMAL.inverseCumulativeProbability(1 - spend / 2);
            } else {
                double dt = t - before;
                double[] g = grid;
                double[] f = density;
                double h = step;
                z = solve(c -> exit(g, f, h, c * Math.sqrt(t), dt), spend);
            }
            out[k] = 2 * (1 - NORMAL.cumulativeProbability(z));
            double bound = z * Math.sqrt(t);
            int n = (int) Math.ceil(bound / step);
            double[] next = new double[2 * n + 1];
            double[] nextDensity = new double[next.length];
            for (int i = 0; i < next.length; i++) {
                next[i] = (i - n) * step;
                double w = next[i];
                if (Math.abs(w) >= bound) {
                    continue;
                }
                if (grid == null) {
                    nextDensity[i] = NORMAL.density(w / Math.sqrt(t)) / Math.sqrt(t);
                } else {
                    double sd = Math.sqrt(t - before);
                    double sum = 0;
                    for (int j = 0; j < grid.length; j++) {
                        sum += density[j] * NORMAL.density((w - grid[j]) / sd) / sd;
                    }
                    nextDensity[i] = sum * step;
                }
            }
            grid = next;
            density = nextDensity;
            before = t;
        }
        return out;
    }

    /** P(|W(t)| >= b and no earlier look stopped), from the density f of W at the previous look, dt before. */
    private static double exit(double[] grid, double[] f, double h, double b, double dt) {
        double sd = Math.sqrt(dt);
        double p = 0;
        for (int j = 0; j < grid.length; j++) {
            if (f[j] > 0) {
                p += f[j] * h * (upper((b - grid[j]) / sd) + upper((b + grid[j]) / sd));
            }
        }
        return p;
    }

    private static double upper(double z) {
        return z > 38 ? 0 : 1 - NORMAL.cumulativeProbability(z);
    }

    /** The z (on the look's own scale) whose exit probability is {@code target}: exit falls as z rises. */
    private static double solve(java.util.function.DoubleUnaryOperator exit, double target) {
        double lo = 0;
        double hi = 40;
        for (int i = 0; i < 100 && hi - lo > 1e-9; i++) {
            double mid = (lo + hi) / 2;
            if (exit.applyAsDouble(mid) > target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** The standard normal quantile of 1 - level / 2: the z of a two-sided interval at {@code level}. */
    public static double z(double level) {
        return NORMAL.inverseCumulativeProbability(1 - level / 2);
    }
}
