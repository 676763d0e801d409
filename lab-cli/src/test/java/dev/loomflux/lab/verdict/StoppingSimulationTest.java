package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.stats.AlphaSpending;
import dev.loomflux.lab.stats.Stats;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The sequential rule ({@link Stopping}) on runs made by the noise model fitted to real block series ({@link NoiseModel}):
 * two targets, 2 sets, a cap of 45 rounds, every look taken as the rounds take it (paired/Looks). What the looks' levels keep (false winners
 * between two names of one target, and at a true difference of exactly the minimum effect) and what they cost against the
 * fixed design of 45 rounds at 5% (power, rounds taken). Each experiment has its own seed, so every figure comes out the
 * same each time, on any number of cores; docs/statistics.md, "Stopping when the answer is known", lists them.
 */
class StoppingSimulationTest {
    static final int CAP = 45;
    static final int SETS = 2;
    static final List<String> AB = List.of("a", "b");
    /** Experiments of the A/A and the 5%-boundary checks; of each power check. */
    static final int RUNS = 1000;
    static final int POWER_RUNS = 300;
    /** One for all the experiments: their looks fall at the same fractions, integrated once. */
    static final AlphaSpending SPENDING = new AlphaSpending();

    /** Where a procedure stopped, why, and what its comparisons said there. */
    /** @param level the two-sided level of the comparisons at the look the rounds stopped at */
    record Run(int rounds, String why, List<PairComparison> comparisons, double level) {
        long winners() {
            return comparisons.stream().filter(c -> c.outcome().equals(PairComparison.A) || c.outcome().equals(PairComparison.B)).count();
        }
    }

    /** The blocks of the first {@code rounds} rounds: the model makes them round by round. */
    static List<BlockRecord> upTo(List<BlockRecord> all, int rounds) {
        return all.subList(0, Math.min(all.size(), rounds * AB.size() * SETS));
    }

    /** The rounds as paired/Looks takes them: a look at each planned round on the blocks so far, until {@link Stopping} says stop. */
    static Run sequential(List<BlockRecord> all, int cap) {
        Stopping s = new Stopping(cap, AB, Timing.FINE, SPENDING);
        for (int round : s.planned()) {
            Stopping.Seen look = s.look(round, upTo(all, round), 4, Double.POSITIVE_INFINITY);
            if (look.stop() != null) {
                return new Run(round, look.stop(), look.comparisons(), s.finalLevel(round));
            }
        }
        throw new AssertionError("the cap's look always stops");
    }

    /** Naive looks: the same looks and the same reasons to stop ({@link Stopping#reachable} for futility), every look at 5%. */
    static Run naive(List<BlockRecord> all, int cap) {
        Stopping s = new Stopping(cap, AB, Timing.FINE);
        for (int round : s.planned()) {
            List<PairComparison> cs = Comparisons.of(upTo(all, round), AB, Timing.FINE);
            int open = 0;
            int reachable = 0;
            for (PairComparison c : cs) {
                if (c.outcome().equals(PairComparison.UNDECIDED)) {
                    open++;
                    reachable += s.reachable(c, round, Stats.ALPHA, Stats.ALPHA) ? 1 : 0;
                }
            }
            String why = open == 0 ? Stopping.DECIDED : round >= cap ? Stopping.CAP : reachable == 0 ? Stopping.FUTILE : null;
            if (why != null) {
                return new Run(round, why, cs, Stats.ALPHA);
            }
        }
        throw new AssertionError("the cap's look always stops");
    }

    /** The fixed design: every round, one interval at 5%. */
    static Run fixed(List<BlockRecord> all) {
        return new Run(CAP, Stopping.CAP, Comparisons.of(all, AB), Stats.ALPHA);
    }

    /** One experiment under each procedure asked for. */
    record Experiment(Run sequential, Run naive, Run fixed) {
    }

    /**
     * {@code runs} experiments in which a is {@code lead} times as good as b on every metric, seeds from {@code seed} on,
     * spread over the cores (each is its own).
     */
    static List<Experiment> experiments(double lead, int runs, long seed, boolean naive) {
        return experiments(NoiseModel.fitted(), lead, runs, seed, naive);
    }

    static List<Experiment> experiments(NoiseModel model, double lead, int runs, long seed, boolean naive) {
        Map<String, double[]> truth = lead == 1 ? Map.of() : Map.of("a", NoiseModel.better(lead));
        return IntStream.range(0, runs).parallel().mapToObj(i -> {
            List<BlockRecord> all = model.run(AB, truth, SETS, CAP, seed + i);
            return new Experiment(sequential(all, CAP), naive ? naive(all, CAP) : null, fixed(all));
        }).toList();
    }

    /** Counts over experiments of one procedure. */
    static final class Tally {
        int runs;
        long comparisons;
        long winners;
        int runsWithWinner;
        long rounds;
        final Map<Metric, long[]> rightByMetric = new TreeMap<>();
        final Map<String, Integer> why = new TreeMap<>();

        static Tally of(List<Experiment> experiments, java.util.function.Function<Experiment, Run> procedure) {
            Tally t = new Tally();
            experiments.forEach(e -> t.add(procedure.apply(e)));
            return t;
        }

        void add(Run r) {
            runs++;
            comparisons += r.comparisons().size();
            winners += r.winners();
            runsWithWinner += r.winners() > 0 ? 1 : 0;
            rounds += r.rounds();
            why.merge(r.why(), 1, Integer::sum);
            for (PairComparison c : r.comparisons()) {
                long[] n = rightByMetric.computeIfAbsent(c.metricKind(), m -> new long[2]);
                n[0] += c.outcome().equals(PairComparison.A) ? 1 : 0;
                n[1]++;
            }
        }

        double perComparison() {
            return winners / (double) comparisons;
        }

        double perRun() {
            return runsWithWinner / (double) runs;
        }

        /** Share of comparisons with a right winner: a, the better one. */
        double power() {
            return rightByMetric.values().stream().mapToLong(n -> n[0]).sum() / (double) comparisons;
        }

        long wrong() {
            return winners - rightByMetric.values().stream().mapToLong(n -> n[0]).sum();
        }

        double meanRounds() {
            return rounds / (double) runs;
        }

        String falseWinners() {
            return String.format(Locale.ROOT, "winners in %d of %d comparisons (%.2f%%), in %d of %d experiments (%.1f%%); mean %.1f rounds; stops %s",
                    winners, comparisons, 100 * perComparison(), runsWithWinner, runs, 100 * perRun(), meanRounds(), why);
        }

        String power(String name) {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s: right winners %.1f%% (", name, 100 * power()));
            rightByMetric.forEach((m, n) -> sb.append(String.format(Locale.ROOT, "%s %.0f%%, ", m.id(), 100.0 * n[0] / n[1])));
            sb.setLength(sb.length() - 2);
            return sb.append(String.format(Locale.ROOT, "), wrong %d; mean %.1f rounds; stops %s", wrong(), meanRounds(), why)).toString();
        }
    }

    @Test
    void twoNamesOfOneTargetGetAWinnerInAtMostFivePercentOfExperiments() {
        long start = System.nanoTime();
        List<Experiment> runs = experiments(1, RUNS, 1_000_000L, true);
        Tally sequential = Tally.of(runs, Experiment::sequential);
        Tally naive = Tally.of(runs, Experiment::naive);
        Tally fixed = Tally.of(runs, Experiment::fixed);
        System.out.printf(Locale.ROOT, "A/A, %d experiments of 2 sets, cap %d (%.1f s)%n  sequential: %s%n  naive looks (5%% at every look): %s%n"
                        + "  fixed 45 rounds: %s%n", RUNS, CAP, (System.nanoTime() - start) / 1e9, sequential.falseWinners(), naive.falseWinners(),
                fixed.falseWinners());
        assertTrue(sequential.perRun() <= 0.05, sequential.falseWinners());
    }

    @Test
    void aTrueDifferenceOfExactlyTheMinimumEffectIsCalledAWinnerInAtMostTwoAndAHalfPercent() {
        long start = System.nanoTime();
        List<Experiment> runs = experiments(1.05, RUNS, 2_000_000L, true);
        Tally sequential = Tally.of(runs, Experiment::sequential);
        Tally naive = Tally.of(runs, Experiment::naive);
        Tally fixed = Tally.of(runs, Experiment::fixed);
        // An experiment's four comparisons move together: the slack counts experiments, not comparisons, as draws.
        double slack = 3 * Math.sqrt(0.025 * 0.975 / RUNS);
        System.out.printf(Locale.ROOT, "a 5%% better on every metric, %d experiments (%.1f s)%n  sequential: %s%n  naive looks (5%% at every look): %s%n"
                        + "  fixed 45 rounds: %s%n", RUNS, (System.nanoTime() - start) / 1e9, sequential.falseWinners(), naive.falseWinners(),
                fixed.falseWinners());
        assertTrue(sequential.perComparison() <= 0.025 + slack, sequential.falseWinners());
        // What of that the JVMs' own levels make: two sets tell the interval little of them (docs/statistics.md).
        for (double jvmSd : new double[] {0, 0.035}) {
            List<Experiment> level = experiments(NoiseModel.fitted().withJvmSd(jvmSd), 1.05, RUNS / 2, 2_000_000L, false);
            System.out.printf(Locale.ROOT, "  the same with the JVMs' own levels at sd %.3f: sequential %s; fixed 45 rounds %s%n", jvmSd,
                    Tally.of(level, Experiment::sequential).falseWinners(), Tally.of(level, Experiment::fixed).falseWinners());
        }
    }

    @Test
    void stoppingEarlyFindsAlmostEveryLeadTheFixedRoundsFindAndTakesFewerRounds() {
        StringBuilder table = new StringBuilder();
        for (double lead : new double[] {1.10, 1.20}) {
            long start = System.nanoTime();
            List<Experiment> runs = experiments(lead, POWER_RUNS, lead < 1.15 ? 3_000_000L : 4_000_000L, false);
            Tally sequential = Tally.of(runs, Experiment::sequential);
            Tally fixed = Tally.of(runs, Experiment::fixed);
            table.append(String.format(Locale.ROOT, "  %.0f%% (%.1f s)%n    %s%n    %s%n", (lead - 1) * 100, (System.nanoTime() - start) / 1e9,
                    sequential.power("sequential"), fixed.power("fixed 45 rounds")));
            assertTrue(sequential.power() >= fixed.power() - 0.05, table.toString());
            assertTrue(sequential.wrong() == 0, "no winner on the wrong side: " + table);
            if (lead >= 1.2) {
                assertTrue(sequential.meanRounds() < CAP, table.toString());
            }
        }
        System.out.printf(Locale.ROOT, "power, %d experiments each, a better on every metric by%n%s", POWER_RUNS, table);
    }
}
