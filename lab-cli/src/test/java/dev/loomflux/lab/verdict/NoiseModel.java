package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.stats.Paired;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.random.RandomGenerator;
import java.util.stream.DoubleStream;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Block series like the ones measured here, fitted from real runs' blocks, for the simulations of the sequential rule
 * (docs/statistics.md, "Stopping when the answer is known", has the fitted figures). The source,
 * fixtures/noise/json-blocks.csv, holds the blocks of two default runs (json; mvc, mvc-vt and webflux; 2 sets; 45 rounds
 * of 1 s). Everything is on the log scale. A block's <b>speed</b> is its log throughput against its JVM's level; the
 * machine moves every metric of a block with it:
 *
 * <pre>
 * speed    = J (the JVM's own level) + R (the round's) + v (W_p (drift to the block's position p) + e (the block's)) - S (a slowdown)
 * metric m = log(the target's level x its true ratio) + loading_m x speed + own_m
 * </pre>
 * <ul>
 * <li>J ~ N(0, jvmSd^2) per JVM for the whole run: each set's JVM against its target's mean over the sets, round by
 * round, averaged over the rounds; their squares less what the rounds' spread puts into such a mean.</li>
 * <li>W: the machine moving within a round, a random walk over its blocks in the order they ran (W_0 = 0, steps
 * N(walkMean, walkSd^2)); e: Student t (noiseSd, noiseDf), AR(1) along the JVM's rounds with noiseLag1. noiseSd and walkSd
 * from the semivariogram of a round's blocks, gamma(d) = noiseSd^2 + walkSd^2 d / 2 + what slowdowns add, by least squares
 * over d = 1..5; walkMean from a round's first block to its last, less what the slowdowns take.</li>
 * <li>v = exp(volatilitySd z - volatilitySd^2): rounds calm and rounds busy. noiseDf and volatilitySd are the pair of a grid
 * whose simulated rounds (the same draws for each) put the differences of a round's blocks and the rounds' sd nearest the
 * measured ones, on the probability scale.</li>
 * <li>S: in slowRate of the rounds, every block from a k on (k uniform) slower by slowSize. A slowdown shows as a drop (a
 * round's mean before k against its mean from k on, at the best k) its rises do not match: the drops past the rises' 90th
 * percentile, beyond as many rises, are the excess; slowSize is the size whose simulated slowed rounds drop by the excess
 * drops' mean, slowRate the excess over the share of such rounds that get past the line.</li>
 * <li>R ~ N(0, roundSd^2): the variance of the rounds' means less what the terms above put there. A ratio within a round
 * cancels it.</li>
 * <li>loading_m: least squares of the metric's log (against its JVM's level) on the block's speed; own_m: the residuals, the
 * Student t whose quantiles lie nearest theirs, less the variance that storing 3 decimals adds, AR(1) as e. Every figure
 * made is stored to 3 decimals, as results.json stores it.</li>
 * </ul>
 * Lags are taken where beyond chance (one-sided 5%), Kendall's bias out; else 0. The terms are fitted in turn, three times
 * over, each with the others' last values.
 */
final class NoiseModel {
    /** The metrics the rounds compare, in {@link Comparisons#METRICS}' order. */
    static final List<Metric> METRICS = Comparisons.METRICS;
    static final String FIXTURE = "/fixtures/noise/json-blocks.csv";
    /** The quantiles of a round's largest drop and rise the slowdowns are fitted to. */
    static final double[] TAILS = {0.5, 0.75, 0.9, 0.95};
    /** The quantiles of blocks' differences within a round and of the rounds' sd the noise's df and the volatility are fitted to. */
    static final double[] SHAPE = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.975, 0.99};
    private static final double[] DFS = {3, 4, 5, 6, 8, 10, 15, 30, Double.POSITIVE_INFINITY};
    private static final double[] QUANTILES = {0.01, 0.025, 0.05, 0.1, 0.25, 0.75, 0.9, 0.95, 0.975, 0.99};
    private static final double[] VOLATILITIES = {0, 0.1, 0.2, 0.3, 0.4, 0.5};
    /** Drops past this quantile of the rounds' largest rises, beyond as many rises, are slowdowns. */
    static final double SLOW_LINE = 0.9;
    /** A slowdown smaller than this (in logs, 5%) is not told from the rounds' own movement. */
    static final double MIN_SLOWDOWN = 0.05;
    private static final int SIMULATED_ROUNDS = 20_000;
    private static NoiseModel fitted;

    /** The blocks the model was fitted from. */
    final String source;
    /** Per metric, the geometric mean of the source's blocks: the level of a target with ratio 1. */
    final double[] base;
    final double jvmSd;
    final double roundSd;
    final double walkMean;
    final double walkSd;
    final double noiseSd;
    final double noiseDf;
    final double noiseLag1;
    final double volatilitySd;
    final double slowRate;
    final double slowSize;
    /** The source's rounds' largest drops, then rises, at {@link #TAILS}; and the fitted model's. */
    final double[] measuredTails;
    final double[] modelTails;
    /** Per metric: its loading on the speed, and its own noise's sd, df and lag-1 autocorrelation (none for throughput). */
    final double[] loading;
    final double[] ownSd;
    final double[] ownDf;
    final double[] ownLag1;

    private NoiseModel(String source, double[] base, double jvmSd, double roundSd, double walkMean, double walkSd, double noiseSd, double noiseDf,
                       double noiseLag1, double volatilitySd, double slowRate, double slowSize, double[] measuredTails, double[] modelTails, double[] loading, double[] ownSd,
                       double[] ownDf, double[] ownLag1) {
        this.source = source;
        this.base = base;
        this.jvmSd = jvmSd;
        this.roundSd = roundSd;
        this.walkMean = walkMean;
        this.walkSd = walkSd;
        this.noiseSd = noiseSd;
        this.noiseDf = noiseDf;
        this.noiseLag1 = noiseLag1;
        this.volatilitySd = volatilitySd;
        this.slowRate = slowRate;
        this.slowSize = slowSize;
        this.measuredTails = measuredTails;
        this.modelTails = modelTails;
        this.loading = loading;
        this.ownSd = ownSd;
        this.ownDf = ownDf;
        this.ownLag1 = ownLag1;
    }

    /** One block as the fixture holds it: its figures in {@link #METRICS}' order. */
    record Row(String run, int set, int round, int position, String target, double[] values) {
        String jvm() {
            return run + "|" + target + "#" + set;
        }
    }

    /** The model fitted from the fixture, once. */
    static synchronized NoiseModel fitted() {
        if (fitted == null) {
            fitted = fit(read(FIXTURE));
        }
        return fitted;
    }

    /** The fixture's blocks: run, set, round, position, target, then each of {@link #METRICS}' figures; # starts a comment. */
    static List<Row> read(String resource) {
        try (InputStream in = NoiseModel.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<Row> out = new ArrayList<>();
            boolean header = true;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (header) {
                    header = false;
                    continue;
                }
                String[] f = line.split(",");
                double[] v = new double[METRICS.size()];
                for (int m = 0; m < v.length; m++) {
                    v[m] = Double.parseDouble(f[5 + m]);
                }
                out.add(new Row(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[4], v));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fits every term (class comment) from the blocks of whole rounds: every round with the same number of blocks. */
    static NoiseModel fit(List<Row> rows) {
        int metrics = METRICS.size();
        Map<String, double[]> level = levels(rows);
        double[] base = new double[metrics];
        for (int m = 0; m < metrics; m++) {
            int mm = m;
            base[m] = Math.exp(rows.stream().mapToDouble(b -> Math.log(b.values()[mm])).average().orElseThrow());
        }
        List<Row[]> rounds = rounds(rows);
        int n = rounds.get(0).length;
        int nr = rounds.size();
        double[][] z = new double[nr][n];
        for (int i = 0; i < nr; i++) {
            for (int p = 0; p < n; p++) {
                Row b = rounds.get(i)[p];
                z[i][p] = Math.log(b.values()[0]) - level.get(b.jvm())[0];
            }
        }
        SplittableRandom rnd = new SplittableRandom(20261128);

        // Drift, block noise and slowdowns, in turn, three times over.
        // The mean step from a round's first block to its last: the drift's, and the slowdowns' (every one of which the last
        // block is past), which walkMean leaves out once they are known.
        double drift = 0;
        for (double[] r : z) {
            drift += (r[n - 1] - r[0]) / (n - 1);
        }
        drift /= nr;
        double walkMean = drift;
        double[] gamma = semivariogram(z, drift);
        double[][] measuredShape = shape(z);
        double[][] measuredTails = tails(z);
        // Slowdowns show as drops a round's rises do not match: counted beyond the rises' 90th percentile.
        double line = quantile(measuredTails[1], SLOW_LINE);
        int excess = 0;
        double excessDrop = 0;
        for (int i = 0; i < nr; i++) {
            if (measuredTails[0][i] > line) {
                excess++;
                excessDrop += measuredTails[0][i];
            }
            if (measuredTails[1][i] > line) {
                excess--;
                excessDrop -= measuredTails[1][i];
            }
        }
        double excessMean = excess > 0 ? excessDrop / excess : 0;
        double noiseDf = Double.POSITIVE_INFINITY;
        double volatilitySd = 0;
        double slowRate = 0;
        double slowSize = 0;
        double[] split = split(gamma, 0, 0);
        double[][] modelTails = measuredTails;
        double modelMeanVar = 0;
        for (int pass = 0; pass < 3; pass++) {
            // The noise's df and the rounds' volatility: the shape of the blocks' differences within a round, and of the rounds' sd.
            long seed = rnd.nextLong();
            double best = Double.POSITIVE_INFINITY;
            for (double df : DFS) {
                Draws draws = Draws.of(SIMULATED_ROUNDS / 4, n, df, seed);
                for (double vol : VOLATILITIES) {
                    double err = distance(shape(draws.rounds(walkMean, split[1], split[0], vol, slowRate, slowSize)), measuredShape, SHAPE);
                    if (err < best) {
                        best = err;
                        noiseDf = df;
                        volatilitySd = vol;
                    }
                }
            }
            // The slowdowns: the size whose slowed rounds, those past the line, drop by the excess drops' mean, and the rate that
            // makes as many rounds past it as the excess, given the share of slowdowns of that size that get past it.
            Draws draws = Draws.of(SIMULATED_ROUNDS, n, noiseDf, rnd.nextLong());
            if (excess > 0) {
                double lo = 0;
                double hi = 2;
                double found = 1;
                for (int i = 0; i < 30; i++) {
                    double size = (lo + hi) / 2;
                    double[] past = past(draws.rounds(walkMean, split[1], split[0], volatilitySd, 1, size), line);
                    found = past[0];
                    if (past[1] < excessMean) {
                        lo = size;
                    } else {
                        hi = size;
                    }
                }
                slowSize = (lo + hi) / 2;
                // Drops past the line no larger than the rounds' own make: no slowdown to tell from them.
                slowRate = slowSize < MIN_SLOWDOWN ? 0 : Math.min(1, excess / (double) nr / found);
                slowSize = slowRate == 0 ? 0 : slowSize;
                double[] terms = split(gamma, slowRate, slowSize);
                if (terms == null) {
                    throw new IllegalStateException("slowdowns of " + slowSize + " in " + slowRate + " of the rounds leave no block noise");
                }
                split = terms;
            }
            walkMean = drift + slowRate * slowSize / (n - 1);
            double[][] made = draws.rounds(walkMean, split[1], split[0], volatilitySd, slowRate, slowSize);
            modelTails = tails(made);
            modelMeanVar = variance(Arrays.stream(made).mapToDouble(r -> Arrays.stream(r).average().orElse(0)).toArray());
        }
        double noiseSd = split[0];
        double walkSd = split[1];

        // The rounds' own level: the variance of their means less what drift, slowdowns and noise put there (as simulated).
        double[] means = Arrays.stream(z).mapToDouble(r -> Arrays.stream(r).average().orElse(0)).toArray();
        double roundSd = Math.sqrt(Math.max(0, variance(means) - modelMeanVar));
        // A JVM's blocks along its rounds, each against its round's mean: their lag-1, as a share of the block noise's variance.
        Map<String, List<Double>> series = new LinkedHashMap<>();
        double centred = 0;
        for (int i = 0; i < nr; i++) {
            for (int p = 0; p < n; p++) {
                double c = z[i][p] - means[i];
                series.computeIfAbsent(rounds.get(i)[p].jvm(), k -> new ArrayList<>()).add(c);
                centred += c * c / (nr * n);
            }
        }
        double noiseLag1 = Math.min(0.9, lag1(series.values()) * centred / (noiseSd * noiseSd * (n - 1) / n));

        // Each other metric on the speed, and its own noise.
        double[] loading = new double[metrics];
        double[] ownSd = new double[metrics];
        double[] ownDf = new double[metrics];
        double[] ownLag1 = new double[metrics];
        loading[0] = 1;
        ownDf[0] = Double.POSITIVE_INFINITY;
        List<Row> ordered = rows.stream().sorted((a, b) -> a.jvm().equals(b.jvm()) ? Integer.compare(a.round(), b.round()) : a.jvm().compareTo(b.jvm()))
                .toList();
        for (int m = 1; m < metrics; m++) {
            double sxy = 0;
            double sxx = 0;
            for (Row b : ordered) {
                double s = Math.log(b.values()[0]) - level.get(b.jvm())[0];
                sxy += s * (Math.log(b.values()[m]) - level.get(b.jvm())[m]);
                sxx += s * s;
            }
            loading[m] = sxy / sxx;
            Map<String, List<Double>> own = new LinkedHashMap<>();
            double[] eta = new double[ordered.size()];
            double rounding = 0;
            for (int i = 0; i < ordered.size(); i++) {
                Row b = ordered.get(i);
                eta[i] = Math.log(b.values()[m]) - level.get(b.jvm())[m] - loading[m] * (Math.log(b.values()[0]) - level.get(b.jvm())[0]);
                own.computeIfAbsent(b.jvm(), k -> new ArrayList<>()).add(eta[i]);
                // Stored to 3 decimals: a uniform error of up to half a step, in logs, adds step^2 / 12 (Sheppard).
                double step = 0.001 / b.values()[m];
                rounding += step * step / 12 / ordered.size();
            }
            double[] fit = tFit(eta);
            ownSd[m] = Math.sqrt(Math.max(0, fit[0] * fit[0] - rounding));
            ownDf[m] = fit[1];
            ownLag1[m] = Math.min(0.9, lag1(own.values()));
        }
        String source = String.join(", ", rows.stream().map(Row::run).distinct().toList()) + " (" + nr + " rounds of " + n + " blocks)";
        return new NoiseModel(source, base, jvmSd(rows), roundSd, walkMean, walkSd, noiseSd, noiseDf, noiseLag1, volatilitySd, slowRate, slowSize,
                at(measuredTails, TAILS), at(modelTails, TAILS), loading, ownSd, ownDf, ownLag1);
    }

    /** Each JVM's level per metric: its mean log over its rounds. */
    private static Map<String, double[]> levels(List<Row> rows) {
        int metrics = METRICS.size();
        Map<String, double[]> level = new TreeMap<>();
        Map<String, Integer> count = new TreeMap<>();
        for (Row b : rows) {
            double[] l = level.computeIfAbsent(b.jvm(), k -> new double[metrics]);
            for (int m = 0; m < metrics; m++) {
                l[m] += Math.log(b.values()[m]);
            }
            count.merge(b.jvm(), 1, Integer::sum);
        }
        level.forEach((k, l) -> {
            for (int m = 0; m < metrics; m++) {
                l[m] /= count.get(k);
            }
        });
        return level;
    }

    /** The rounds in run order, each its blocks in the order they ran. */
    static List<Row[]> rounds(List<Row> rows) {
        Map<String, List<Row>> byRound = new TreeMap<>();
        rows.forEach(b -> byRound.computeIfAbsent(b.run() + "|" + String.format(Locale.ROOT, "%05d", b.round()), k -> new ArrayList<>()).add(b));
        List<Row[]> out = new ArrayList<>();
        for (List<Row> list : byRound.values()) {
            Row[] r = list.stream().sorted((x, y) -> Integer.compare(x.position(), y.position())).toArray(Row[]::new);
            if (!out.isEmpty() && r.length != out.get(0).length) {
                throw new IllegalArgumentException("rounds of " + out.get(0).length + " and " + r.length + " blocks");
            }
            out.add(r);
        }
        return out;
    }

    /**
     * sd of the JVMs' own levels: each set's JVM against its target's mean over the sets, round by round, averaged over the
     * rounds; their squares less what the rounds' spread puts into such a mean, over the degrees of freedom.
     */
    private static double jvmSd(List<Row> rows) {
        Map<String, Map<Integer, Map<Integer, Double>>> byTarget = new TreeMap<>();
        rows.forEach(b -> byTarget.computeIfAbsent(b.run() + "|" + b.target(), k -> new TreeMap<>()).computeIfAbsent(b.round(), k -> new TreeMap<>())
                .put(b.set(), Math.log(b.values()[0])));
        double ss = 0;
        double noise = 0;
        int df = 0;
        for (Map<Integer, Map<Integer, Double>> rounds : byTarget.values()) {
            TreeSet<Integer> sets = new TreeSet<>();
            rounds.values().forEach(m -> sets.addAll(m.keySet()));
            if (sets.size() < 2) {
                continue;
            }
            Map<Integer, List<Double>> dev = new TreeMap<>();
            for (Map<Integer, Double> r : rounds.values()) {
                if (r.size() == sets.size()) {
                    double mean = r.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
                    r.forEach((s, v) -> dev.computeIfAbsent(s, k -> new ArrayList<>()).add(v - mean));
                }
            }
            for (List<Double> d : dev.values()) {
                double[] x = d.stream().mapToDouble(Double::doubleValue).toArray();
                double mean = Arrays.stream(x).average().orElse(0);
                ss += mean * mean;
                noise += variance(x) / (x.length - 1.0);
            }
            df += sets.size() - 1;
        }
        return df == 0 ? 0 : Math.sqrt(Math.max(0, (ss - noise) / df));
    }

    /**
     * Simulated rounds for the fit, each from the same draws whatever the terms (common random numbers), so that the fit's
     * error moves with the terms, not with the draws.
     */
    private record Draws(double[][] steps, double[][] noise, double[] volatility, double[] slow, int[] onset) {
        static Draws of(int rounds, int n, double df, long seed) {
            SplittableRandom rnd = new SplittableRandom(seed);
            double[][] steps = new double[rounds][n];
            double[][] noise = new double[rounds][n];
            double[] volatility = new double[rounds];
            double[] slow = new double[rounds];
            int[] onset = new int[rounds];
            for (int i = 0; i < rounds; i++) {
                for (int p = 0; p < n; p++) {
                    steps[i][p] = rnd.nextGaussian();
                    noise[i][p] = t(df, rnd);
                }
                volatility[i] = rnd.nextGaussian();
                slow[i] = rnd.nextDouble();
                onset[i] = 1 + rnd.nextInt(n - 1);
            }
            return new Draws(steps, noise, volatility, slow, onset);
        }

        /** The rounds with these terms, without the JVMs' and the round's own levels. */
        double[][] rounds(double walkMean, double walkSd, double noiseSd, double volatilitySd, double slowRate, double slowSize) {
            double[][] out = new double[steps.length][];
            for (int i = 0; i < out.length; i++) {
                int n = steps[i].length;
                double[] r = new double[n];
                double v = scale(volatilitySd, volatility[i]);
                int from = slow[i] < slowRate ? onset[i] : n;
                double w = 0;
                for (int p = 0; p < n; p++) {
                    if (p > 0) {
                        w += walkMean + v * walkSd * steps[i][p];
                    }
                    r[p] = w - (p >= from ? slowSize : 0) + v * noiseSd * noise[i][p];
                }
                out[i] = r;
            }
            return out;
        }
    }

    /** A round's multiple of the drift's and the noise's sd: exp(sd z - sd^2), whose square's mean is 1. */
    static double scale(double volatilitySd, double z) {
        return Math.exp(volatilitySd * z - volatilitySd * volatilitySd);
    }

    /** gamma(d), d = 1..n-1: half the mean squared difference of two blocks d positions apart in a round, the mean drift out. */
    private static double[] semivariogram(double[][] z, double walkMean) {
        int n = z[0].length;
        double[] gamma = new double[n];
        for (int d = 1; d < n; d++) {
            double s = 0;
            int c = 0;
            for (double[] r : z) {
                for (int p = 0; p + d < n; p++) {
                    double diff = r[p + d] - r[p] - d * walkMean;
                    s += diff * diff / 2;
                    c++;
                }
            }
            gamma[d] = s / c;
        }
        return gamma;
    }

    /**
     * {noise sd, drift sd}: the least-squares line a + b d through the semivariogram less what slowdowns of that rate and size
     * add, a the noise's variance and b half the drift's; null where the slowdowns leave no noise.
     */
    private static double[] split(double[] gamma, double slowRate, double slowSize) {
        int n = gamma.length;
        double mx = 0;
        double my = 0;
        double[] rest = new double[n];
        for (int d = 1; d < n; d++) {
            rest[d] = gamma[d] - slowRate * slowSize * slowSize * d / (n - 1.0) / 2;
            mx += d / (n - 1.0);
            my += rest[d] / (n - 1.0);
        }
        double sxy = 0;
        double sxx = 0;
        for (int d = 1; d < n; d++) {
            sxy += (d - mx) * (rest[d] - my);
            sxx += (d - mx) * (d - mx);
        }
        double slope = sxy / sxx;
        double intercept = my - slope * mx;
        return intercept <= 0 ? null : new double[] {Math.sqrt(intercept), Math.sqrt(Math.max(0, 2 * slope))};
    }

    /** The round's largest drop: the mean of its blocks before k against those from k on, at the best k; and that k. */
    static double[] largestDrop(double[] r) {
        int n = r.length;
        double total = 0;
        for (double v : r) {
            total += v;
        }
        double before = 0;
        double best = Double.NEGATIVE_INFINITY;
        int at = 1;
        for (int k = 1; k < n; k++) {
            before += r[k - 1];
            double d = before / k - (total - before) / (n - k);
            if (d > best) {
                best = d;
                at = k;
            }
        }
        return new double[] {best, at};
    }

    /** {share, mean}: of the rounds' largest drops, the share past the line, and their mean. */
    private static double[] past(double[][] rounds, double line) {
        int count = 0;
        double sum = 0;
        for (double[] r : rounds) {
            double d = largestDrop(r)[0];
            if (d > line) {
                count++;
                sum += d;
            }
        }
        return new double[] {count / (double) rounds.length, count == 0 ? 0 : sum / count};
    }

    /** The rounds' largest drops and their largest rises, each sorted. */
    static double[][] tails(double[][] rounds) {
        double[] drops = new double[rounds.length];
        double[] rises = new double[rounds.length];
        for (int i = 0; i < rounds.length; i++) {
            drops[i] = largestDrop(rounds[i])[0];
            rises[i] = largestDrop(Arrays.stream(rounds[i]).map(v -> -v).toArray())[0];
        }
        Arrays.sort(drops);
        Arrays.sort(rises);
        return new double[][] {drops, rises};
    }

    /**
     * What the noise's df and the rounds' volatility are fitted to: the differences of every two blocks of a round (the later
     * less the earlier), and the rounds' sd; unsorted.
     */
    static double[][] shape(double[][] rounds) {
        int n = rounds[0].length;
        double[] diffs = new double[rounds.length * n * (n - 1) / 2];
        double[] sds = new double[rounds.length];
        int k = 0;
        for (int i = 0; i < rounds.length; i++) {
            double[] r = rounds[i];
            double sum = 0;
            for (int p = 0; p < n; p++) {
                sum += r[p];
                for (int q = p + 1; q < n; q++) {
                    diffs[k++] = r[q] - r[p];
                }
            }
            double ss = 0;
            for (double v : r) {
                ss += (v - sum / n) * (v - sum / n);
            }
            sds[i] = Math.sqrt(ss / (n - 1));
        }
        return new double[][] {diffs, sds};
    }

    /**
     * How far simulated samples lie from measured ones, on the probability scale: for each sample and each p of
     * {@code probabilities}, the share of the simulated values at or below the measured p-quantile, less p, squared and
     * summed. Every quantile then counts alike, the tails' (few values, far apart) no more than the middle's.
     */
    private static double distance(double[][] simulated, double[][] measured, double[] probabilities) {
        double err = 0;
        for (int i = 0; i < simulated.length; i++) {
            double[] sorted = measured[i].clone();
            Arrays.sort(sorted);
            double[] points = new double[probabilities.length];
            for (int j = 0; j < points.length; j++) {
                points[j] = quantile(sorted, probabilities[j]);
            }
            // How many simulated values fall at or below each point: each value counted at the first point at or above it.
            int[] below = new int[points.length + 1];
            for (double v : simulated[i]) {
                int at = Arrays.binarySearch(points, v);
                if (at >= 0) {
                    while (at > 0 && points[at - 1] == v) {
                        at--;
                    }
                } else {
                    at = -at - 1;
                }
                below[at]++;
            }
            int cumulative = 0;
            for (int j = 0; j < points.length; j++) {
                cumulative += below[j];
                double share = cumulative / (double) simulated[i].length;
                err += (share - probabilities[j]) * (share - probabilities[j]);
            }
        }
        return err;
    }

    /** Each sorted sample's quantiles at {@code probabilities}, one after the other. */
    private static double[] at(double[][] sorted, double[] probabilities) {
        double[] out = new double[sorted.length * probabilities.length];
        for (int i = 0; i < sorted.length; i++) {
            for (int j = 0; j < probabilities.length; j++) {
                out[i * probabilities.length + j] = quantile(sorted[i], probabilities[j]);
            }
        }
        return out;
    }

    private static double quantile(double[] sorted, double p) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    }

    /** {scale (an sd), df}: the t (of {@link #DFS}) whose quantiles, scaled by least squares, lie nearest the values' own. */
    private static double[] tFit(double[] values) {
        double mean = Arrays.stream(values).average().orElse(0);
        double[] q = quantiles(Arrays.stream(values).map(v -> v - mean).toArray());
        double best = Double.POSITIVE_INFINITY;
        double[] out = null;
        for (double df : DFS) {
            double sd = Double.isInfinite(df) ? 1 : Math.sqrt(df / (df - 2));
            double[] t = new double[QUANTILES.length];
            for (int i = 0; i < t.length; i++) {
                t[i] = (Double.isInfinite(df) ? new NormalDistribution(null, 0, 1).inverseCumulativeProbability(QUANTILES[i])
                        : new TDistribution(null, df).inverseCumulativeProbability(QUANTILES[i])) / sd;
            }
            double sxy = 0;
            double sxx = 0;
            for (int i = 0; i < t.length; i++) {
                sxy += t[i] * q[i];
                sxx += t[i] * t[i];
            }
            double scale = sxy / sxx;
            double err = 0;
            for (int i = 0; i < t.length; i++) {
                err += (q[i] - scale * t[i]) * (q[i] - scale * t[i]);
            }
            if (err < best) {
                best = err;
                out = new double[] {scale, df};
            }
        }
        return out;
    }

    /**
     * The series' mean lag-1 autocorrelation with Kendall's bias ((1 + 3r) / n) taken out, where it is beyond what independent
     * series give (one-sided 5%: r sqrt(their total length) > 1.645); else 0.
     */
    private static double lag1(Collection<List<Double>> series) {
        double sum = 0;
        int length = 0;
        int count = 0;
        for (List<Double> s : series) {
            if (s.size() >= 3) {
                sum += Paired.lag1(s.stream().mapToDouble(Double::doubleValue).toArray());
                length += s.size();
                count++;
            }
        }
        if (count == 0) {
            return 0;
        }
        double r = sum / count;
        return r * Math.sqrt(length) <= 1.645 ? 0 : r + (1 + 3 * r) / (length / (double) count);
    }

    private static DoubleStream centred(double[] r) {
        double mean = Arrays.stream(r).average().orElse(0);
        return Arrays.stream(r).map(v -> v - mean);
    }

    private static double[] quantiles(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        double[] out = new double[QUANTILES.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = s[(int) Math.min(s.length - 1, Math.floor(QUANTILES[i] * s.length))];
        }
        return out;
    }

    private static double variance(double[] x) {
        double mean = Arrays.stream(x).average().orElse(0);
        return Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum() / x.length;
    }

    /** Student t with df degrees of freedom (a whole number) scaled to variance 1; a standard normal for an infinite df. */
    static double t(double df, RandomGenerator rnd) {
        double z = rnd.nextGaussian();
        if (Double.isInfinite(df)) {
            return z;
        }
        double chi = 0;
        for (int i = 0; i < (int) df; i++) {
            double g = rnd.nextGaussian();
            chi += g * g;
        }
        return z / Math.sqrt(chi / df) / Math.sqrt(df / (df - 2));
    }

    /**
     * A run's blocks of one scenario, "json": every target's JVM of every set once a round, in a new random order per round
     * (as {@code Rounds.shuffled}), under 50 users of which 49.8 busy (no round paced), every figure to 3 decimals; no JIT
     * time, so no JIT rule.
     *
     * @param ratios per target, its true figure per metric (in {@link #METRICS}' order) as a multiple of the base level;
     *               a target absent is at the base level
     */
    List<BlockRecord> run(List<String> targets, Map<String, double[]> ratios, int sets, int roundCount, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int metrics = METRICS.size();
        int jvms = targets.size() * sets;
        double[] jvmLevel = new double[jvms];
        double[] noise = new double[jvms];
        double[][] own = new double[jvms][metrics];
        int[] order = new int[jvms];
        for (int j = 0; j < jvms; j++) {
            jvmLevel[j] = jvmSd * rnd.nextGaussian();
            noise[j] = noiseSd * t(noiseDf, rnd);
            for (int m = 1; m < metrics; m++) {
                own[j][m] = ownSd[m] * t(ownDf[m], rnd);
            }
            order[j] = j;
        }
        List<BlockRecord> out = new ArrayList<>(jvms * roundCount);
        for (int r = 1; r <= roundCount; r++) {
            for (int i = jvms - 1; i > 0; i--) {
                int k = rnd.nextInt(i + 1);
                int x = order[i];
                order[i] = order[k];
                order[k] = x;
            }
            double round = roundSd * rnd.nextGaussian();
            double volatility = scale(volatilitySd, rnd.nextGaussian());
            int slowFrom = jvms > 1 && rnd.nextDouble() < slowRate ? 1 + rnd.nextInt(jvms - 1) : jvms;
            double walk = 0;
            for (int p = 0; p < jvms; p++) {
                int j = order[p];
                if (r > 1) {
                    noise[j] = noiseLag1 * noise[j] + Math.sqrt(1 - noiseLag1 * noiseLag1) * noiseSd * t(noiseDf, rnd);
                    for (int m = 1; m < metrics; m++) {
                        own[j][m] = ownLag1[m] * own[j][m] + Math.sqrt(1 - ownLag1[m] * ownLag1[m]) * ownSd[m] * t(ownDf[m], rnd);
                    }
                }
                if (p > 0) {
                    walk += walkMean + volatility * walkSd * rnd.nextGaussian();
                }
                double speed = jvmLevel[j] + round + walk - (p >= slowFrom ? slowSize : 0) + volatility * noise[j];
                String target = targets.get(j / sets);
                double[] ratio = ratios.get(target);
                double[] v = new double[metrics];
                for (int m = 0; m < metrics; m++) {
                    v[m] = Result.round(base[m] * (ratio == null ? 1 : ratio[m]) * Math.exp(loading[m] * speed + own[j][m]));
                }
                out.add(BlockRecord.builder().scenario("json").set(j % sets + 1).round(r).position(p).target(target).users(50).seconds(1.0)
                        .requests(Math.round(v[0])).responses(Math.round(v[0])).errors(0).rps(v[0]).p50(v[1]).p99(v[2])
                        .meanMs(Result.round(v[1] * 1.1)).inFlight(49.8).cpuMsPerRequest(v[3]).rssMb(512.0).reconnections(0L).build());
            }
        }
        return out;
    }

    /** The same model with the JVMs' own levels at sd {@code sd}: what they do to the intervals. */
    NoiseModel withJvmSd(double sd) {
        return new NoiseModel(source, base, sd, roundSd, walkMean, walkSd, noiseSd, noiseDf, noiseLag1, volatilitySd, slowRate, slowSize, measuredTails,
                modelTails, loading, ownSd, ownDf, ownLag1);
    }

    /** A target's figures where it is {@code better} times as good on every metric: throughput times it, the rest over it. */
    static double[] better(double better) {
        double[] out = new double[METRICS.size()];
        for (int m = 0; m < out.length; m++) {
            out[m] = METRICS.get(m).higherIsBetter() ? better : 1 / better;
        }
        return out;
    }

    /** The fitted terms, as docs/statistics.md lists them. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("source: ").append(source).append('\n');
        sb.append(String.format(Locale.ROOT, "speed (log throughput): JVM level sd %.4f, round sd %.4f, drift per block %.4f, sd %.4f, block noise sd %.4f "
                        + "(t, df %s), lag-1 along a JVM's rounds %.3f, volatility sd %.2f, slowdowns in %.3f of rounds by %.2f (x%.2f) from a block on%n",
                jvmSd, roundSd, walkMean, walkSd, noiseSd, df(noiseDf), noiseLag1, volatilitySd, slowRate, slowSize, Math.exp(-slowSize)));
        sb.append("a round's largest drop / rise at ").append(Arrays.toString(TAILS)).append(": measured ").append(rounded(measuredTails))
                .append(", model ").append(rounded(modelTails)).append('\n');
        for (int m = 0; m < METRICS.size(); m++) {
            sb.append(String.format(Locale.ROOT, "%s: base %.4f, loading %.3f, own noise sd %.4f (t, df %s), lag-1 %.3f%n", METRICS.get(m).id(), base[m],
                    loading[m], ownSd[m], df(ownDf[m]), ownLag1[m]));
        }
        return sb.toString();
    }

    private static String rounded(double[] v) {
        return Arrays.toString(Arrays.stream(v).map(x -> Math.round(x * 1000) / 1000.0).toArray());
    }

    private static String df(double df) {
        return Double.isInfinite(df) ? "normal" : String.valueOf((int) df);
    }
}
