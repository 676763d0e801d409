package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
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
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * results.json's {@code comparisons} from its {@code blocks}: per scenario, metric and pair of targets,
 * the per-round ratios judged by {@link Paired}; a flow scenario's per part of it ({@link ScenarioPart}: its flow and each
 * step, docs/statistics.md, "Flows and their steps"). The sets of JVMs are pooled round by round; a winner
 * must show in every set. A pair of blocks in which a JIT compiled past {@link #COMPILER_LIMIT_PCT} of a CPU is left out of
 * its comparison, the drift check and the JVMs' levels alike ({@link QuietBlocks}). A target whose throughput trends across the
 * rounds against every other target takes part in no verdict: its blocks are not one state.
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
    /** The most of the rounds' time a JVM's JIT may compile for: the steady-state rule's own limit ({@link #compiling}, {@link #jitQuiet}). */
    public static final double JIT_LIMIT_PCT = SteadyRule.DEFAULT.maxJitPct();
    /**
     * The most CPU (% of one CPU) the target JVMs' compiler threads may take over a block's window for the block to count: the
     * steady-state rule's own limit on them ({@link SteadyRule#maxJitCpuPct()}).
     */
    public static final double COMPILER_LIMIT_PCT = SteadyRule.DEFAULT.maxJitCpuPct();

    private Comparisons() {
    }

    /** The metrics a mix's flow and a flow's step are compared on: the target's CPU is the block's, not a part's. */
    static final List<Metric> PART_METRICS = List.of(Metric.THROUGHPUT, Metric.P50, Metric.P99);

    /** Per scenario (and sweep cell), metric and pair of targets; a closed model's blocks carry their users for Little's law. */
    public static List<PairComparison> of(List<BlockRecord> all, List<String> targets) {
        return of(all, targets, Timing.FINE);
    }

    /** @param timing how the driver times requests: JMeter in whole ms (a step of 1), Hyperfoil to 2 significant digits ({@link Timing#FINE}) */
    public static List<PairComparison> of(List<BlockRecord> all, List<String> targets, Timing timing) {
        return of(all, targets, timing, Map.of());
    }

    /**
     * @param levels per scenario (and cell, as {@link BlockRecord#where()}), the two-sided level of its intervals where a
     *               sequential run stopped at a look ({@link dev.loomflux.lab.stats.AlphaSpending}); 5% where absent
     */
    public static List<PairComparison> of(List<BlockRecord> blocks, List<String> targets, Timing timing, Map<String, Double> levels) {
        List<PairComparison> out = new ArrayList<>();
        // A target's death in a shape is its block's outcome, judged as survival ({@link SurvivalVerdicts}): its figures up to the
        // death are not the shape's, so a round without its block compares the others only.
        List<BlockRecord> all = lived(blocks);
        // A round in which the load side paced either block compares the driver with itself: left out.
        Set<String> paced = all.stream().filter(Comparisons::paced).map(Comparisons::roundKey).collect(Collectors.toSet());
        // Every scenario (cell) the blocks have, its paced rounds left out: one whose every round was paced gets comparisons that
        // say so, not none (a crud run on a busy machine once ended with no comparison and no word why).
        Map<String, List<BlockRecord>> byWhere = all.stream()
                .collect(Collectors.groupingBy(BlockRecord::where, LinkedHashMap::new, Collectors.toList()));
        byWhere.forEach((where, whole) -> {
            List<BlockRecord> list = whole.stream().filter(b -> !paced.contains(roundKey(b))).toList();
            // Drift and pacing are the JVM's and the load side's, judged on the block's requests together for every part of it.
            Set<String> drifting = drifting(list, targets);
            BlockRecord first = whole.get(0);
            double level = levels.getOrDefault(where, Stats.ALPHA);
            for (ScenarioPart part : BlockRecord.parts(whole)) {
                List<BlockRecord> view = list.stream().map(b -> b.view(part)).filter(Objects::nonNull).toList();
                PairJudge judge = new PairJudge(new PairJudge.Scope(first.scenario(), first.cell(), drifting, timing, level), view);
                for (Metric m : part.standsForScenario(first.scenario()) ? METRICS : PART_METRICS) {
                    for (int i = 0; i < targets.size(); i++) {
                        for (int j = i + 1; j < targets.size(); j++) {
                            String a = targets.get(i);
                            String b = targets.get(j);
                            PairComparison c = judge.compare(part, m, a, b, pacedRounds(all, where, a, b), QuietBlocks.leftOut(list, a, b));
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

    /** The blocks whose target lived through them. */
    static List<BlockRecord> lived(List<BlockRecord> blocks) {
        return blocks.stream().filter(b -> !b.died()).toList();
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

    /** Targets whose throughput ratio to every other target trends across rounds, over the pairs the comparisons keep ({@link QuietBlocks}). */
    public static Set<String> drifting(List<BlockRecord> all, List<String> targets) {
        Set<String> out = new TreeSet<>();
        List<BlockRecord> blocks = lived(all);
        for (String t : targets) {
            boolean everyOther = targets.size() > 1;
            for (String other : targets) {
                if (!other.equals(t) && !trends(logRatios(QuietBlocks.kept(blocks, t, other), Metric.THROUGHPUT, t, other, null))) {
                    everyOther = false;
                }
            }
            if (everyOther) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * Targets with a JVM whose JIT still compiled through the measured rounds, each with what its JVMs did: their finished
     * compilations took more than the steady-state rule's share of the rounds' time ({@link SteadyRule#maxJitPct()}, 5%, the
     * limit a warmup ends on). Information for notes: the verdicts leave out the blocks in which a JIT compiled
     * ({@link QuietBlocks}) and widen nothing by it. A block's JIT time counts from the JVM's previous block, so a JVM's
     * blocks together cover the rounds; their time is every block's of those rounds, every set's. Blocks without JIT time
     * (a JVM without hsperfdata, or a file written before blocks carried it) leave a target out of this.
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
     * Whether a JVM's JIT stayed within the steady-state rule's share of the rounds' time ({@link #JIT_LIMIT_PCT}) over its
     * blocks ({@link #jitShares}); a JVM without JIT time counts as quiet. Its comparisons do not depend on it: they leave
     * out the blocks in which any JIT compiled past {@link #COMPILER_LIMIT_PCT} of a CPU ({@link QuietBlocks#loudRounds}).
     */
    public static boolean jitQuiet(Double pct) {
        return pct == null || pct <= JIT_LIMIT_PCT;
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

    /**
     * The standard deviation the JVMs' own levels add to a pooled a - b of a per-block value (in its own unit: logs for
     * {@link PairJudge#jvmHalfWidth}), sqrt(2 s^2 / k) for k sets and s^2 the per-JVM variance read from the run; 0 with one set or
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

    /**
     * A target's JVM of {@code set} against its JVM of set 1, on throughput per round (a sweep's cells pooled): how
     * far two JVMs of one jar differ in this run. Every ratio between targets carries such differences, and
     * an interval over rounds does not cover them (docs/statistics.md, "How much of that two sets show"). Over the pairs
     * of blocks the comparisons would keep ({@link QuietBlocks#apart}).
     */
    public static Paired jvmRatio(List<BlockRecord> blocks, String scenario, String target, int set) {
        Map<String, BlockRecord> first = new TreeMap<>();
        Map<String, BlockRecord> other = new TreeMap<>();
        for (BlockRecord r : blocks) {
            if (r.scenario().equals(scenario) && r.target().equals(target) && (r.set() == 1 || r.set() == set)) {
                (r.set() == 1 ? first : other).put(r.where() + "|" + r.round(), r);
            }
        }
        first.keySet().removeIf(k -> !other.containsKey(k) || QuietBlocks.apart(first.get(k), other.get(k)));
        return Paired.of(first.keySet().stream().mapToDouble(k -> other.get(k).load().rps()).toArray(),
                first.values().stream().mapToDouble(r -> r.load().rps()).toArray(), true);
    }

    /** One set's a and b figures by round, where both have one. */
    static Map<Integer, double[]> byRound(List<BlockRecord> blocks, Metric m, String a, String b, int set) {
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

}
