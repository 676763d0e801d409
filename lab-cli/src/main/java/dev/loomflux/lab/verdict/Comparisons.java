package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ScenarioPart;
import dev.loomflux.lab.stats.AlphaSpending;
import dev.loomflux.lab.stats.Paired;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.steady.SteadyRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * results.json's {@code comparisons} from its {@code blocks}: per scenario, metric and pair of targets,
 * the per-round ratios judged by {@link Paired}; a flow scenario's per part of it ({@link ScenarioPart}: its flow and each
 * step, docs/statistics.md, "Flows and their steps"). The sets of JVMs are pooled round by round; a winner
 * must show in every set. A target whose throughput trends across the
 * rounds against every other target takes part in no verdict: its blocks are not one state. One with a JVM whose JIT still
 * compiled through them gets intervals widened by what that may cost it ({@link #jitBias}).
 */
public final class Comparisons {
    /** The metrics rounds compare: speed, then efficiency. */
    public static final List<Metric> METRICS = List.of(Metric.THROUGHPUT, Metric.P50, Metric.P99, Metric.CPU_PER_REQUEST);
    /** A ratio that moved this much from the first third of the rounds to the last (and significantly) is a trend. */
    static final double TREND_PCT = 10;
    /**
     * A closed-model block whose users were in a request less than this share of the time (throughput x
     * mean latency / users, Little's law) was paced by the load side, not by the target: the driver's or
     * the database's CPU ran full, and every target then measures the load side's pace, while a
     * target-bound block keeps nearly all its users busy (docs/statistics.md, "Counting a window").
     */
    public static final double MIN_BUSY = 0.9;
    /** The most of the rounds' time a JVM's JIT may compile for: the steady-state rule's own limit ({@link #compiling}). */
    public static final double JIT_LIMIT_PCT = SteadyRule.DEFAULT.maxJitPct();
    private static final String LONGER_WARMUP = "a longer --warmup or more --lead-in-rounds lets the JIT finish first";

    private Comparisons() {
    }

    /** The metrics a mix's flow and a flow's step are compared on: the target's CPU is the block's, not a part's. */
    static final List<Metric> PART_METRICS = List.of(Metric.THROUGHPUT, Metric.P50, Metric.P99);

    /** Per scenario (and sweep cell), metric and pair of targets; a closed model's blocks carry their users for Little's law. */
    public static List<PairComparison> of(List<BlockRecord> all, List<String> targets) {
        return of(all, targets, 0);
    }

    /** @param latencyStepMs the driver's latency resolution: JMeter times requests in whole ms (1), Hyperfoil to 2 significant digits (0 here) */
    public static List<PairComparison> of(List<BlockRecord> all, List<String> targets, double latencyStepMs) {
        return of(all, targets, latencyStepMs, Map.of());
    }

    /**
     * @param levels per scenario (and cell, as {@link BlockRecord#where()}), the two-sided level of its intervals where a
     *               sequential run stopped at a look ({@link dev.loomflux.lab.stats.AlphaSpending}); 5% where absent
     */
    public static List<PairComparison> of(List<BlockRecord> all, List<String> targets, double latencyStepMs, Map<String, Double> levels) {
        List<PairComparison> out = new ArrayList<>();
        // A round in which the load side paced either block compares the driver with itself: left out.
        Set<String> paced = all.stream().filter(Comparisons::paced).map(Comparisons::roundKey).collect(Collectors.toSet());
        List<BlockRecord> blocks = all.stream().filter(b -> !paced.contains(roundKey(b))).toList();
        Map<String, List<BlockRecord>> byWhere = blocks.stream()
                .collect(Collectors.groupingBy(BlockRecord::where, LinkedHashMap::new, Collectors.toList()));
        byWhere.forEach((where, list) -> {
            // Drift and pacing are the JVM's and the load side's, judged on the block's requests together for every part of it.
            Set<String> drifting = drifting(list, targets);
            Map<String, Map<Integer, Double>> jit = jitShares(all.stream().filter(b -> b.where().equals(where)).toList());
            BlockRecord first = list.get(0);
            double level = levels.getOrDefault(where, Stats.ALPHA);
            for (ScenarioPart part : BlockRecord.parts(list)) {
                List<BlockRecord> view = list.stream().map(b -> b.view(part)).filter(Objects::nonNull).toList();
                for (Metric m : part.standsForScenario(first.scenario()) ? METRICS : PART_METRICS) {
                    for (int i = 0; i < targets.size(); i++) {
                        for (int j = i + 1; j < targets.size(); j++) {
                            PairComparison c = compare(first.scenario(), first.cell(), part, m, targets.get(i), targets.get(j), view, drifting,
                                    jit, pacedRounds(all, where, targets.get(i), targets.get(j)), latencyStepMs, level);
                            if (c != null) {
                                out.add(c);
                            }
                        }
                    }
                }
            }
        });
        return out;
    }

    /** A round of one scenario and cell in one set of JVMs. */
    private static String roundKey(BlockRecord b) {
        return b.where() + "|" + b.set() + "/" + b.round();
    }

    /**
     * Whether a closed model's block had too few users busy (or, with think time, in a request or a
     * pause): the load side, not the target, set its pace.
     */
    public static boolean paced(BlockRecord b) {
        return b.load().users() != null && b.cyclingUsers() != null && b.cyclingUsers() < MIN_BUSY * b.load().users();
    }

    /** Rounds of a scenario (and cell) in which the load side paced a or b. */
    private static long pacedRounds(List<BlockRecord> all, String where, String a, String b) {
        return all.stream().filter(x -> x.where().equals(where) && (x.target().equals(a) || x.target().equals(b)) && paced(x))
                .map(Comparisons::roundKey).distinct().count();
    }

    /** Targets whose throughput ratio to every other target trends across rounds. */
    public static Set<String> drifting(List<BlockRecord> blocks, List<String> targets) {
        Set<String> out = new TreeSet<>();
        for (String t : targets) {
            boolean all = targets.size() > 1;
            for (String other : targets) {
                if (!other.equals(t) && !trends(logRatios(blocks, Metric.THROUGHPUT, t, other, null))) {
                    all = false;
                }
            }
            if (all) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * Targets with a JVM whose JIT still compiled through the measured rounds, each with what its JVMs did: their finished
     * compilations took more than the steady-state rule's share of the rounds' time ({@link SteadyRule#maxJitPct()}, 5%, the
     * limit a warmup ends on). Such a JVM is a different program in its last block than in its first, and slower than it will
     * be: in A/A runs of crud whose compile stages ended early, JVMs that compiled for 15-48% of the rounds' time ran at
     * 0.69-0.89 of their twins' throughput and gave the other name a winner (docs/statistics.md, "A JIT still compiling in the
     * rounds"); {@link #jitBias} widens their comparisons by that. A block's JIT time counts from the JVM's previous block, so
     * a JVM's blocks together cover the rounds; their time is every block's of those rounds, every set's. Blocks without JIT
     * time (a JVM without hsperfdata; schema 14 and before) leave a target out of this rule.
     *
     * @param jitShares {@link #jitShares} of the blocks
     */
    public static Map<String, String> compiling(Map<String, Map<Integer, Double>> jitShares) {
        Map<String, String> out = new TreeMap<>();
        jitShares.forEach((target, sets) -> compilingNote(target, sets).ifPresent(n -> out.put(target, n)));
        return out;
    }

    /** "mvc2's JIT still compiled through the rounds (set 1: 8.7%, set 2: 24.9% of their time; limit 5%)", when any JVM passed the limit. */
    private static Optional<String> compilingNote(String target, Map<Integer, Double> sets) {
        List<String> busy = new ArrayList<>();
        sets.forEach((set, pct) -> {
            if (pct > JIT_LIMIT_PCT) {
                busy.add(String.format(Locale.ROOT, "%s%.1f%%", sets.size() > 1 ? "set " + set + ": " : "", pct));
            }
        });
        return busy.isEmpty() ? Optional.empty() : Optional.of(String.format(Locale.ROOT,
                "%s's JIT still compiled through the rounds (%s of their time; limit %.0f%%)", target, String.join(", ", busy), JIT_LIMIT_PCT));
    }

    /**
     * How far a JVM's figures may be off, as a share (0.31 for 31%), when it compiled for p of the rounds' time (a target's
     * comparisons take its largest over the sets): none up to the limit; beyond it, such a JVM is taken to run at no less than 1 - 3p of its
     * speed, so its figures may be off by 1 / (1 - 3p) - 1; at a third or more, by any amount (infinity). The bound holds with
     * room for the seven JVMs measured past the limit (p 5.2-48%: 0.69-1.05 of their twins' throughput, where 1 - 2p would
     * have held too, barely at p = 8.7%: 0.85 against 0.83); docs/statistics.md, "A JIT still compiling in the rounds".
     */
    public static double jitBias(double pct) {
        if (pct <= JIT_LIMIT_PCT) {
            return 0;
        }
        double p = pct / 100;
        return p >= 1.0 / 3 ? Double.POSITIVE_INFINITY : 3 * p / (1 - 3 * p);
    }

    /** {@link #jitBias} of the target's JVM that compiled the most; 0 without JIT time. */
    private static double jitBias(Map<String, Map<Integer, Double>> jitShares, String target) {
        return jitBias(jitShares.getOrDefault(target, Map.of()).values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }

    /** Per target and set, the share of the rounds' time (%) its JVM's JIT compiled for; a JVM whose blocks carry no JIT time is absent. */
    public static Map<String, Map<Integer, Double>> jitShares(List<BlockRecord> blocks) {
        Map<String, Double> roundSeconds = new TreeMap<>();
        blocks.forEach(b -> roundSeconds.merge(b.where() + "|" + b.round(), b.load().seconds(), Double::sum));
        Map<String, Map<Integer, double[]>> sums = new TreeMap<>();
        for (BlockRecord b : blocks) {
            if (b.resources().jitMs() != null) {
                double[] s = sums.computeIfAbsent(b.target(), t -> new TreeMap<>()).computeIfAbsent(b.set(), x -> new double[2]);
                s[0] += b.resources().jitMs();
                s[1] += roundSeconds.get(b.where() + "|" + b.round()) * 1000;
            }
        }
        Map<String, Map<Integer, Double>> out = new TreeMap<>();
        sums.forEach((target, sets) -> sets.forEach((set, s) ->
                out.computeIfAbsent(target, t -> new TreeMap<>()).put(set, s[1] > 0 ? 100 * s[0] / s[1] : 0)));
        return out;
    }

    /** The last third of the rounds against the first, per set: medians more than {@link #TREND_PCT} apart, and a rank test. */
    static boolean trends(Map<Integer, double[]> logRatiosBySet) {
        for (double[] r : logRatiosBySet.values()) {
            int third = r.length / 3;
            if (third < 3) {
                continue;
            }
            double[] first = Arrays.copyOfRange(r, 0, third);
            double[] last = Arrays.copyOfRange(r, r.length - third, r.length);
            // Medians, not means: one round in which the machine changed speed between two blocks moves a third's mean
            // enough to call a steady pair drifting (docs/statistics.md, "What takes a target out of the verdicts").
            double change = Math.exp(median(last) - median(first)) - 1;
            if (Math.abs(change) * 100 > TREND_PCT && new MannWhitneyUTest().mannWhitneyUTest(first, last) < 0.05) {
                return true;
            }
        }
        return false;
    }

    private static PairComparison compare(String scenario, Map<String, Integer> cell, ScenarioPart part, Metric m, String a, String b, List<BlockRecord> blocks,
                                          Set<String> drifting, Map<String, Map<Integer, Double>> jitShares, long pacedRounds, double latencyStepMs,
                                          double level) {
        List<double[]> pairs = pairs(blocks, m, a, b, null);
        if (pairs.isEmpty()) {
            return pacedRounds == 0 ? null : new PairComparison(scenario, cell, part, m.id(), a, b, new PairComparison.RatioEstimate(null, List.of(), 0),
                    new PairComparison.Judgement(PairComparison.UNDECIDED, null, pacedNote(pacedRounds)), null);
        }
        double counting = resolution(blocks, m, a, latencyStepMs) + resolution(blocks, m, b, latencyStepMs);
        // A JVM still compiling runs slower than it will: its side of the ratio may be off by that, which rounds do not average out.
        double jit = jitBias(jitShares, a) + jitBias(jitShares, b);
        double resolution = counting + (Double.isFinite(jit) ? jit : 0);
        String compiling = Stream.of(a, b).map(t -> compilingNote(t, jitShares.getOrDefault(t, Map.of()))).flatMap(Optional::stream)
                .collect(Collectors.joining("; "));
        double jvms = jvmHalfWidth(blocks, m, a, b, level);
        Paired pooled = paired(pairs, m, resolution, jvms, level);
        // Without the JVMs' part: a lead the sets do not share is named as such, before the spread it makes.
        String withinJvms = outcome(paired(pairs, m, resolution, 0, level));
        String outcome = outcome(pooled);
        String note = null;
        if (pooled.rounds() < Paired.MIN_ROUNDS && pacedRounds > 0) {
            note = pacedNote(pacedRounds);
        } else if (!Double.isFinite(jit)) {
            note = compiling + ", a third or more of it: no verdict (" + LONGER_WARMUP + ")";
        } else if (drifting.contains(a) || drifting.contains(b)) {
            note = String.join(" and ", drifting.stream().filter(t -> t.equals(a) || t.equals(b)).toList())
                    + " drifted across the rounds (throughput against every other target, last third vs first): no verdict";
        } else if (withinJvms.equals(PairComparison.A) || withinJvms.equals(PairComparison.B)) {
            note = disagreement(blocks, m, a, b, withinJvms, resolution, level);
        }
        if (note == null && outcome.equals(PairComparison.UNDECIDED)) {
            if (pooled.widening() > 1) {
                note = String.format(Locale.ROOT, "the per-round ratios wander (neighbouring rounds alike, as while a JIT still compiles): "
                        + "interval widened x%.2f, no verdict", pooled.widening());
            } else if (jit > 0 && paired(pairs, m, counting, jvms, level).outcome() != Paired.Decision.UNDECIDED) {
                note = String.format(Locale.ROOT, "%s, which may move this ratio by up to +-%.0f%%: no verdict within that (%s)", compiling, jit * 100,
                        LONGER_WARMUP);
            } else if (counting > 0 && paired(pairs, m, 0, jvms, level).outcome() != Paired.Decision.UNDECIDED) {
                note = m == Metric.THROUGHPUT
                        ? String.format(Locale.ROOT, "a block counts too few whole requests per user to tell throughput closer than +-%.1f%%: "
                        + "longer blocks (--block) would", counting * 100)
                        : String.format(Locale.ROOT, "the driver times requests in whole ms, too coarse to tell %s closer than +-%.1f%%: "
                        + "Hyperfoil (--driver hyperfoil) would", m.id(), counting * 100);
            } else if (jvms > 0 && !withinJvms.equals(PairComparison.UNDECIDED)) {
                note = String.format(Locale.ROOT, "the JVMs of one target sit at levels of their own, which rounds do not average out "
                        + "(+-%.1f%% on this ratio): more sets of JVMs (--sets) would tell", Math.expm1(jvms) * 100);
            }
        }
        if (note != null) {
            outcome = PairComparison.UNDECIDED;
        }
        int settle = pooled.roundsToSettle();
        return new PairComparison(scenario, cell, part, m.id(), a, b,
                new PairComparison.RatioEstimate(round(pooled.ratio()), List.of(round(pooled.low()), round(pooled.high())), pooled.rounds()),
                new PairComparison.Judgement(outcome, outcome.equals(PairComparison.UNDECIDED) && note == null && settle > 0 ? settle : null, note), null);
    }

    private static String pacedNote(long rounds) {
        return "the load side, not the targets, set the pace in " + rounds + " round(s) (Little's law: fewer than "
                + Math.round(MIN_BUSY * 100) + "% of the users busy; the driver's or the database's CPU ran full), too few rounds left";
    }

    /**
     * A winner must hold in every set of JVMs: each set's own ratio beyond the minimum effect on the
     * winner's side. One JVM of a target can run faster than another of the same jar for the whole run,
     * which no interval over rounds can see; a second set that does not repeat the lead is that
     * (docs/statistics.md, "Sets of JVMs").
     */
    private static String disagreement(List<BlockRecord> blocks, Metric m, String a, String b, String pooledOutcome, double resolution, double level) {
        Set<Integer> sets = blocks.stream().map(BlockRecord::set).collect(Collectors.toCollection(TreeSet::new));
        if (sets.size() < 2) {
            return null;
        }
        // + when the winner's ratio is above 1 (a ahead on a higher-is-better metric, or b ahead on a lower-is-better one)
        double side = pooledOutcome.equals(PairComparison.A) == m.higherIsBetter() ? 1 : -1;
        double line = Math.log1p(Stats.MIN_EFFECT_PCT / 100);
        List<String> against = new ArrayList<>();
        for (int set : sets) {
            List<double[]> pairs = pairs(blocks, m, a, b, set);
            if (pairs.isEmpty()) {
                continue;
            }
            Paired p = paired(pairs, m, resolution, 0, level);
            if (side * Math.log(p.ratio()) <= line) {
                against.add(String.format(Locale.ROOT, "set %d gives %s/%s %.3f (95%% CI %.3f-%.3f)", set, a, b, p.ratio(), p.low(), p.high()));
            }
        }
        return against.isEmpty() ? null : "not every set of JVMs shows it (" + String.join("; ", against) + "): no verdict";
    }

    private static Paired paired(List<double[]> pairs, Metric m, double resolution, double jvms, double level) {
        return Paired.of(pairs.stream().mapToDouble(p -> p[0]).toArray(), pairs.stream().mapToDouble(p -> p[1]).toArray(), m.higherIsBetter(),
                resolution, jvms, level);
    }

    /**
     * How far, in logs, counting alone may move a target's figure: for throughput the largest
     * {@link BlockRecord#rpsResolution()} of its blocks; for a latency timed in steps of {@code latencyStepMs},
     * half a step over its smallest figure (JMeter's whole ms: two targets that read the same whole ms in every
     * round have a ratio of 1.000 with no interval at all; docs/statistics.md, "Timing in whole milliseconds");
     * 0 for CPU per request.
     */
    private static double resolution(List<BlockRecord> blocks, Metric m, String target, double latencyStepMs) {
        List<BlockRecord> own = blocks.stream().filter(x -> x.target().equals(target)).toList();
        return switch (m) {
            case THROUGHPUT -> own.stream().mapToDouble(BlockRecord::rpsResolution).max().orElse(0);
            case P50, P99 -> latencyStepMs <= 0 ? 0 : own.stream().map(x -> x.figure(m)).filter(f -> f != null && f > 0)
                    .mapToDouble(f -> Math.log1p(latencyStepMs / 2 / f)).max().orElse(0);
            default -> 0;
        };
    }

    /**
     * The 95% half-width, in logs, that the JVMs' own levels add to a pooled ratio of k sets. Each JVM of a
     * target settles at a level of its own for the whole run (docs/statistics.md, "The JVMs' own levels in the
     * interval"), which no number of rounds averages out, only more JVMs; the per-set rule ({@link #disagreement}) alone let
     * 21 in 400 simulated A/A runs of 2 sets through with a winner (ComparisonsTest), this 11. The spread is read
     * from the run itself: how far each of a's and b's JVMs lies from its target's mean over the sets, less what
     * the rounds' own spread puts there. Taken with the normal quantile, not Student's t of its 2 (k - 1) degrees
     * of freedom: t (4.3 for two sets) cut the 20% leads found from 385 to 165 in 400 in a like simulation, the
     * normal quantile to 341 (docs/statistics.md). 0 with one set.
     */
    static double jvmHalfWidth(List<BlockRecord> blocks, Metric m, String a, String b, double level) {
        return AlphaSpending.z(level) * jvmSd(blocks, r -> {
            Double v = r.figure(m);
            return v != null && v > 0 ? Math.log(v) : null;
        }, a, b);
    }

    /**
     * The standard deviation the JVMs' own levels add to a pooled a - b of a per-block value (in its own unit: logs for
     * {@link #jvmHalfWidth}), sqrt(2 s^2 / k) for k sets and s^2 the per-JVM variance read from the run; 0 with one set or
     * without two rounds that have every set.
     *
     * @param value a block's value, null where it has none
     */
    static double jvmSd(List<BlockRecord> blocks, Function<BlockRecord, Double> value, String a, String b) {
        int k = (int) blocks.stream().map(BlockRecord::set).distinct().count();
        if (k < 2) {
            return 0;
        }
        double ss = 0;
        double noise = 0;
        int df = 0;
        for (String t : List.of(a, b)) {
            double[][] dev = deviations(blocks, value, t, k);
            if (dev == null) {
                return 0;
            }
            for (double[] d : dev) {
                double level = median(d);
                ss += level * level;
                // A median over n rounds still carries their spread, about pi/2 x their variance / n.
                double mean = Arrays.stream(d).average().orElse(0);
                noise += Math.PI / 2 * Arrays.stream(d).map(x -> (x - mean) * (x - mean)).sum() / (d.length - 1) / d.length;
            }
            df += k - 1;
        }
        double perJvm = Math.max(0, (ss - noise) / df);
        return Math.sqrt(2 * perJvm / k);
    }

    /**
     * Per set of a target, per round, its JVM's value against the mean of the target's JVMs in that round (which cancels the
     * machine). Null without enough rounds that have every set.
     */
    private static double[][] deviations(List<BlockRecord> blocks, Function<BlockRecord, Double> value, String target, int k) {
        Map<Integer, double[]> byRound = new TreeMap<>();
        for (BlockRecord r : blocks) {
            Double v = r.target().equals(target) && r.set() >= 1 && r.set() <= k ? value.apply(r) : null;
            if (v != null) {
                byRound.computeIfAbsent(r.round(), x -> {
                    double[] none = new double[k];
                    Arrays.fill(none, Double.NaN);
                    return none;
                })[r.set() - 1] = v;
            }
        }
        List<double[]> whole = byRound.values().stream().filter(x -> Arrays.stream(x).noneMatch(Double::isNaN)).toList();
        if (whole.size() < 2) {
            return null;
        }
        double[][] dev = new double[k][whole.size()];
        for (int i = 0; i < whole.size(); i++) {
            double[] x = whole.get(i);
            double mean = Arrays.stream(x).average().orElse(0);
            for (int s = 0; s < k; s++) {
                dev[s][i] = x[s] - mean;
            }
        }
        return dev;
    }

    private static String outcome(Paired p) {
        return switch (p.outcome()) {
            case A -> PairComparison.A;
            case B -> PairComparison.B;
            case EQUIVALENT -> PairComparison.EQUIVALENT;
            case UNDECIDED -> PairComparison.UNDECIDED;
        };
    }

    /**
     * a's and b's figure per round where both have one: of one set, or (set null) pooled over the sets
     * that have both in that round, as geometric means. The sets share their rounds, so their ratios in
     * one round share the machine of that moment: counted as separate rounds they would narrow the
     * interval by what is one observation of the machine, not two.
     */
    private static List<double[]> pairs(List<BlockRecord> blocks, Metric m, String a, String b, Integer set) {
        if (set != null) {
            return List.copyOf(byRound(blocks, m, a, b, set).values());
        }
        Map<Integer, List<double[]>> pooled = new TreeMap<>();
        for (int s : blocks.stream().map(BlockRecord::set).collect(Collectors.toCollection(TreeSet::new))) {
            byRound(blocks, m, a, b, s).forEach((round, pair) -> pooled.computeIfAbsent(round, k -> new ArrayList<>()).add(pair));
        }
        return pooled.values().stream().map(l -> new double[] {mean(l, 0), mean(l, 1)}).toList();
    }

    /**
     * A target's JVM of {@code set} against its JVM of set 1, on throughput per round (a sweep's cells pooled): how
     * far two JVMs of one jar differ in this run. Every ratio between targets carries such differences, and
     * an interval over rounds does not cover them (docs/statistics.md, "How much of that two sets show").
     */
    public static Paired jvmRatio(List<BlockRecord> blocks, String scenario, String target, int set) {
        Map<String, Double> first = new TreeMap<>();
        Map<String, Double> other = new TreeMap<>();
        for (BlockRecord r : blocks) {
            if (r.scenario().equals(scenario) && r.target().equals(target) && (r.set() == 1 || r.set() == set)) {
                (r.set() == 1 ? first : other).put(r.where() + "|" + r.round(), r.load().rps());
            }
        }
        first.keySet().retainAll(other.keySet());
        return Paired.of(first.keySet().stream().mapToDouble(other::get).toArray(), first.values().stream().mapToDouble(Double::doubleValue).toArray(), true);
    }

    /** Geometric where every figure is positive (ratios average in logs), else arithmetic. */
    private static double mean(List<double[]> pairs, int i) {
        boolean positive = pairs.stream().allMatch(p -> p[i] > 0);
        double sum = 0;
        for (double[] p : pairs) {
            sum += positive ? Math.log(p[i]) : p[i];
        }
        return positive ? Math.exp(sum / pairs.size()) : sum / pairs.size();
    }

    /** One set's a and b figures by round, where both have one. */
    private static Map<Integer, double[]> byRound(List<BlockRecord> blocks, Metric m, String a, String b, int set) {
        Map<Integer, Double> bs = new TreeMap<>();
        for (BlockRecord r : blocks) {
            if (r.target().equals(b) && r.set() == set && r.figure(m) != null) {
                bs.put(r.round(), r.figure(m));
            }
        }
        Map<Integer, double[]> out = new TreeMap<>();
        for (BlockRecord r : blocks) {
            Double other = bs.get(r.round());
            if (r.target().equals(a) && r.set() == set && r.figure(m) != null && other != null) {
                out.put(r.round(), new double[] {r.figure(m), other});
            }
        }
        return out;
    }

    /** Per set, the log ratios a/b in round order. */
    private static Map<Integer, double[]> logRatios(List<BlockRecord> blocks, Metric m, String a, String b, Integer only) {
        Map<Integer, double[]> out = new TreeMap<>();
        Collection<Integer> sets = blocks.stream().map(BlockRecord::set).filter(s -> only == null || Objects.equals(s, only))
                .collect(Collectors.toCollection(TreeSet::new));
        for (int set : sets) {
            out.put(set, byRound(blocks, m, a, b, set).values().stream()
                    .filter(p -> p[0] > 0 && p[1] > 0).mapToDouble(p -> Math.log(p[0] / p[1])).toArray());
        }
        return out;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double round(double v) {
        return Double.isFinite(v) ? Result.round(v) : v;
    }
}
