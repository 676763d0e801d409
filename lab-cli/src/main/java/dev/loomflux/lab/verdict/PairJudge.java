package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ScenarioPart;
import dev.loomflux.lab.stats.AlphaSpending;
import dev.loomflux.lab.stats.Paired;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Two targets of one scenario (and sweep cell) on one metric, judged by their per-round ratios ({@link Paired}), the sets of
 * JVMs pooled round by round: the outcome, or why there is none ({@link Comparisons}).
 */
final class PairJudge {
    private static final String LONGER_WARMUP = "a longer --warmup or more --lead-in-rounds lets the JIT finish first";

    /**
     * What a scenario's (cell's) comparisons share.
     *
     * @param drifting      the targets that drifted across the rounds ({@link Comparisons#drifting})
     * @param timing        how the driver times requests
     * @param level         the two-sided level of its intervals
     */
    record Scope(String scenario, Map<String, Integer> cell, Set<String> drifting, Timing timing, double level) {
    }

    private final Scope scope;
    private final List<BlockRecord> blocks;

    /**
     * @param blocks the scenario's (cell's) blocks, as the part compared sees them, without the rounds the load side paced; each
     *               comparison leaves out the pairs of its blocks in which a JIT compiled ({@link QuietBlocks})
     */
    PairJudge(Scope scope, List<BlockRecord> blocks) {
        this.scope = scope;
        this.blocks = blocks;
    }

    /**
     * a against b on one metric of one part of the scenario.
     *
     * @param pacedRounds rounds in which the load side paced a or b: left out of the blocks already
     * @param leftOut     the rounds in which a pair of a's and b's blocks was left out ({@link QuietBlocks}), for the note
     * @return null where neither has a figure of it in any round and no round was left out
     */
    PairComparison compare(ScenarioPart part, Metric m, String a, String b, long pacedRounds, QuietBlocks.LeftOut leftOut) {
        List<BlockRecord> blocks = QuietBlocks.kept(this.blocks, a, b);
        String scenario = scope.scenario();
        Map<String, Integer> cell = scope.cell();
        Set<String> drifting = scope.drifting();
        double level = scope.level();
        Integer compiling = leftOut.rounds() > 0 ? leftOut.rounds() : null;
        List<double[]> pairs = pairs(blocks, m, a, b, null, Map.of());
        boolean bounded = false;
        if (pairs.size() < Paired.MIN_ROUNDS && compiling != null) {
            // Too few quiet rounds: every round, each pair of compiling blocks off by as much as its JITs could have moved it;
            // a pair past any bound stays out.
            List<BlockRecord> bound = QuietBlocks.bounded(this.blocks, a, b);
            List<double[]> all = pairs(bound, m, a, b, null, QuietBlocks.offBy(bound, a, b));
            if (all.size() >= Paired.MIN_ROUNDS) {
                blocks = bound;
                pairs = all;
                bounded = true;
            }
        }
        if (pairs.isEmpty()) {
            return pacedRounds == 0 && compiling == null ? null : new PairComparison(scenario, cell, part, m.id(), a, b,
                    new PairComparison.RatioEstimate(null, List.of(), 0, compiling),
                    new PairComparison.Judgement(PairComparison.UNDECIDED, null, pacedRounds > 0 ? pacedNote(pacedRounds) : tooFew(leftOut)), null);
        }
        double step = scope.timing().stepMs();
        double resolution = resolution(blocks, m, a, step) + resolution(blocks, m, b, step);
        double jvms = jvmHalfWidth(blocks, m, a, b, level);
        Paired pooled = paired(pairs, m, resolution, jvms, level);
        // Without the JVMs' part: a lead the sets do not share is named as such, before the spread it makes.
        String withinJvms = outcome(paired(pairs, m, resolution, 0, level));
        String outcome = outcome(pooled);
        int settle = pooled.roundsToSettle();
        String note = null;
        if (pooled.rounds() < Paired.MIN_ROUNDS && pacedRounds > 0) {
            note = pacedNote(pacedRounds);
        } else if (pooled.rounds() < Paired.MIN_ROUNDS && compiling != null) {
            note = tooFew(leftOut);
        } else if (bounded && outcome.equals(PairComparison.UNDECIDED)) {
            note = String.format(Locale.ROOT, "%s; without them too few would be left, so every round is judged, each of those allowed to be off "
                    + "by what its JITs could have moved it (3x the compile share): no verdict (%s)", leftOut.note().replace(": those blocks left out", ""),
                    LONGER_WARMUP);
        } else if (drifting.contains(a) || drifting.contains(b)) {
            note = String.join(" and ", drifting.stream().filter(t -> t.equals(a) || t.equals(b)).toList())
                    + " drifted across the rounds (throughput against every other target, last third vs first): no verdict";
        } else if (withinJvms.equals(PairComparison.A) || withinJvms.equals(PairComparison.B)) {
            note = disagreement(blocks, m, a, b, withinJvms, resolution);
        }
        if (note == null && outcome.equals(PairComparison.UNDECIDED)) {
            if (pooled.widening() > 1) {
                note = String.format(Locale.ROOT, "the per-round ratios wander (neighbouring rounds alike, as while a JIT still compiles): "
                        + "interval widened x%.2f, no verdict", pooled.widening());
            } else if (resolution > 0 && paired(pairs, m, 0, jvms, level).outcome() != Paired.Decision.UNDECIDED) {
                note = m == Metric.THROUGHPUT
                        ? String.format(Locale.ROOT, "a block counts too few whole requests per user to tell throughput closer than +-%.1f%%: "
                        + "longer blocks (--block) would", resolution * 100)
                        : String.format(Locale.ROOT, "the driver times requests in whole ms, too coarse to tell %s closer than +-%.1f%%", m.id(), resolution * 100)
                        + (scope.timing().finer() == null ? ": no verdict" : ": " + scope.timing().finer() + " would");
            } else if (jvms > 0 && !withinJvms.equals(PairComparison.UNDECIDED)) {
                note = String.format(Locale.ROOT, "the JVMs of one target sit at levels of their own, which rounds do not average out "
                        + "(+-%.1f%% on this ratio): more sets of JVMs (--sets) would tell", Math.expm1(jvms) * 100);
            } else if (compiling != null && settle > 0 && settle <= leftOut.of()) {
                // The rounds the rule took would likely have settled it: what cost the verdict is the JIT, not the spread.
                note = String.format(Locale.ROOT, "%s; about %d rounds would likely settle it (%s)", leftOut.note(), settle, LONGER_WARMUP);
            }
        }
        if (note != null) {
            outcome = PairComparison.UNDECIDED;
        }
        return new PairComparison(scenario, cell, part, m.id(), a, b,
                new PairComparison.RatioEstimate(round(pooled.ratio()), List.of(round(pooled.low()), round(pooled.high())), pooled.rounds(), compiling),
                new PairComparison.Judgement(outcome, outcome.equals(PairComparison.UNDECIDED) && note == null && settle > 0 ? settle : null, note), null);
    }

    /** Too few rounds left once the loud blocks were left out: which JVM compiled, and what lets it finish first. */
    private static String tooFew(QuietBlocks.LeftOut leftOut) {
        return leftOut.note() + ", too few rounds left: no verdict (" + LONGER_WARMUP + ")";
    }

    private static String pacedNote(long rounds) {
        return "the load side, not the targets, set the pace in " + rounds + " round(s) (Little's law: fewer than "
                + Math.round(Comparisons.MIN_BUSY * 100) + "% of the users busy; the driver's or the database's CPU ran full), too few rounds left";
    }

    /**
     * A winner must hold in every set of JVMs: each set's own ratio beyond the minimum effect on the
     * winner's side. One JVM of a target can run faster than another of the same jar for the whole run,
     * which no interval over rounds can see; a second set that does not repeat the lead is that
     * (docs/statistics.md, "Sets of JVMs").
     */
    private String disagreement(List<BlockRecord> blocks, Metric m, String a, String b, String pooledOutcome, double resolution) {
        double level = scope.level();
        Set<Integer> sets = blocks.stream().map(BlockRecord::set).collect(Collectors.toCollection(TreeSet::new));
        if (sets.size() < 2) {
            return null;
        }
        // + when the winner's ratio is above 1 (a ahead on a higher-is-better metric, or b ahead on a lower-is-better one)
        double side = pooledOutcome.equals(PairComparison.A) == m.higherIsBetter() ? 1 : -1;
        double line = Math.log1p(Stats.MIN_EFFECT_PCT / 100);
        List<String> against = new ArrayList<>();
        for (int set : sets) {
            List<double[]> pairs = pairs(blocks, m, a, b, set, Map.of());
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
                resolution, jvms, level, pairs.stream().mapToDouble(p -> p[2]).toArray());
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
        return AlphaSpending.z(level) * Comparisons.jvmSd(blocks, r -> {
            Double v = r.figure(m);
            return v != null && v > 0 ? Math.log(v) : null;
        }, a, b);
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
     * a's and b's figure per round where both have one, and how far in logs their ratio may be off ({@link QuietBlocks#offBy},
     * by "set/round", 0 where absent): of one set, or (set null) pooled over the sets that have both in that round, as
     * geometric means, the bound as their mean. The sets share their rounds, so their ratios in one round share the machine
     * of that moment: counted as separate rounds they would narrow the interval by what is one observation of the machine, not two.
     */
    private static List<double[]> pairs(List<BlockRecord> blocks, Metric m, String a, String b, Integer set, Map<String, Double> offBy) {
        Map<Integer, List<double[]>> pooled = new TreeMap<>();
        for (int s : blocks.stream().map(BlockRecord::set).filter(s -> set == null || s == set.intValue()).collect(Collectors.toCollection(TreeSet::new))) {
            Comparisons.byRound(blocks, m, a, b, s).forEach((round, pair) -> pooled.computeIfAbsent(round, k -> new ArrayList<>())
                    .add(new double[] {pair[0], pair[1], offBy.getOrDefault(s + "/" + round, 0.0)}));
        }
        return pooled.values().stream().map(l -> new double[] {mean(l, 0), mean(l, 1), l.stream().mapToDouble(p -> p[2]).average().orElse(0)}).toList();
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

    private static double round(double v) {
        return Double.isFinite(v) ? Result.round(v) : v;
    }
}
