package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Two runs of one experiment side by side: how far apart their figures are and whether they tell the
 * same story (docs/reproducibility.md). A report, not a gate: it never fails.
 */
public final class Reproducibility {
    static final double LOW = 0.90;
    static final double HIGH = 1.10;
    /** The metrics of summary.verdicts; rankings of single runs use the same three. */
    private static final List<Metric> RANKED = Metric.SUMMARIZED;

    /**
     * One line of a ratio table: one pair of results, or the medians over repeats of one target x
     * scenario. Ratios are B / A, rounded to the 3 decimals printed, so a printed 1.100 is within the goal.
     */
    record Ratios(String target, String where, Double throughputA, Double throughputB, Double throughput, Double p50, Double p99, String steady) {
        boolean throughputOk() {
            return within(throughput);
        }

        boolean p50Ok() {
            return within(p50);
        }

        String[] cells() {
            return new String[] {target, where, Comparison.fmt(throughputA), Comparison.fmt(throughputB), fmt(throughput), fmt(p50), fmt(p99),
                    steady, throughputOk() && p50Ok() ? "ok" : "MISSED"};
        }
    }

    private final Pairs pairs;
    private final List<Ratios> rows = new ArrayList<>();
    private final List<Ratios> medians = new ArrayList<>();
    private final List<String[]> agreement = new ArrayList<>();
    private final boolean verdicts;
    private int flips;
    private int weaker;
    private int rankChanges;

    private Reproducibility(Pairs pairs, boolean verdicts) {
        this.pairs = pairs;
        this.verdicts = verdicts;
    }

    public static Reproducibility of(RunRecord runA, RunRecord runB) {
        // Single runs carry verdicts too, all "too few repeats": comparing those would always agree.
        boolean verdicts = repeated(runA) && repeated(runB) && !verdicts(runA).isEmpty() && !verdicts(runB).isEmpty();
        Reproducibility r = new Reproducibility(Pairs.of(runA, runB), verdicts);
        for (Pairs.Pair p : r.pairs.matched()) {
            String unsteady = p.unsteady();
            r.rows.add(new Ratios(p.target(), p.where(), Metric.THROUGHPUT.read(p.a()), Metric.THROUGHPUT.read(p.b()), ratio(Metric.THROUGHPUT, p),
                    ratio(Metric.P50, p), ratio(Metric.P99, p), unsteady.isEmpty() ? "yes" : "no: " + unsteady));
        }
        if (verdicts) {
            r.compareMedians(estimates(runA), estimates(runB));
            r.compareVerdicts(verdicts(runA), verdicts(runB));
        } else {
            r.compareRankings(runA, runB);
        }
        return r;
    }

    private static final List<String> HEADER = List.of("target", "scenario", "throughput A", "throughput B", "ratio B/A", "p50 B/A", "p99 B/A", "both steady", "goal");

    public List<String[]> table() {
        List<String[]> out = new ArrayList<>();
        out.add(HEADER.toArray(String[]::new));
        rows.forEach(r -> out.add(r.cells()));
        return out;
    }

    /** Repeated runs: the medians over repeats (summary.estimates), the figures a verdict stands on; else empty. */
    public List<String[]> mediansTable() {
        if (medians.isEmpty()) {
            return List.of();
        }
        List<String[]> out = new ArrayList<>();
        String[] header = HEADER.toArray(String[]::new);
        header[7] = "repeats A / B";
        out.add(header);
        medians.forEach(r -> out.add(r.cells()));
        return out;
    }

    /** The title of the agreement table: what was compared. */
    public String agreementTitle() {
        return verdicts ? "verdicts of the two runs (summary.verdicts):"
                : "best target per scenario and metric (single runs carry no verdicts, so this is a ranking, not a verdict):";
    }

    public List<String[]> agreementTable() {
        return agreement;
    }

    public List<String> unmatched() {
        return pairs.unmatched();
    }

    public String unsteadyLine() {
        return pairs.unsteadyLine("their ratios describe a moving target");
    }

    /** Judged on the medians when the runs are repeated: a single repeat is not what the lab reports. */
    public String summary() {
        List<Ratios> judged = medians.isEmpty() ? rows : medians;
        double[] t = judged.stream().map(Ratios::throughput).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        String range = t.length == 0 ? "-" : fmt(Arrays.stream(t).min().getAsDouble()) + "-" + fmt(Arrays.stream(t).max().getAsDouble());
        int m = judged.size();
        return String.format(Locale.ROOT, "%sthroughput ratios min-max %s; %d of %d within %.2f-%.2f; p50 within +-10%%: %d of %d; verdict flips: %s",
                medians.isEmpty() ? "" : "medians over repeats: ", range, judged.stream().filter(Ratios::throughputOk).count(), m, LOW, HIGH,
                judged.stream().filter(Ratios::p50Ok).count(), m,
                verdicts ? flips + (weaker > 0 ? " (weaker: " + weaker + ")" : "") : "n/a (single runs); rank changes: " + rankChanges);
    }

    /** Per target x scenario in both runs' summary.estimates: the medians of throughput, p50 and p99, and their ratios. */
    private void compareMedians(Map<String, RepeatSummary.Median> a, Map<String, RepeatSummary.Median> b) {
        String throughput = Metric.THROUGHPUT.summaryName();
        for (Map.Entry<String, RepeatSummary.Median> e : a.entrySet()) {
            String key = e.getKey();
            if (!key.endsWith("\n" + throughput) || !b.containsKey(key)) {
                continue;
            }
            String[] id = key.split("\n");
            String prefix = id[0] + "\n" + id[1] + "\n";
            RepeatSummary.Median ta = e.getValue();
            RepeatSummary.Median tb = b.get(key);
            String p50 = prefix + Metric.P50.summaryName();
            String p99 = prefix + Metric.P99.summaryName();
            medians.add(new Ratios(id[0], id[1], ta.median(), tb.median(), ratio(ta.median(), tb.median()),
                    ratio(median(a.get(p50)), median(b.get(p50))), ratio(median(a.get(p99)), median(b.get(p99))), ta.n() + " / " + tb.n()));
        }
    }

    /** Same winner, or no winner in both: agree; a winner in one only: weaker; two different winners: FLIP. */
    private void compareVerdicts(List<RepeatSummary.PairVerdict> a, List<RepeatSummary.PairVerdict> b) {
        agreement.add(new String[] {"scenario", "metric", "targets", "run A", "run B", "agreement"});
        Map<String, RepeatSummary.PairVerdict> byKey = new LinkedHashMap<>();
        b.forEach(v -> byKey.put(verdictKey(v), v));
        for (RepeatSummary.PairVerdict va : a) {
            RepeatSummary.PairVerdict vb = byKey.get(verdictKey(va));
            if (vb == null) {
                continue;
            }
            String wa = va.clearWinner();
            String wb = vb.clearWinner();
            String verdict = Objects.equals(wa, wb) ? "agree" : wa == null || wb == null ? "weaker" : "FLIP";
            flips += verdict.equals("FLIP") ? 1 : 0;
            weaker += verdict.equals("weaker") ? 1 : 0;
            agreement.add(new String[] {va.scenario(), va.metric(), va.a() + " vs " + va.b(),
                    wa == null ? "no verdict" : wa + " ahead", wb == null ? "no verdict" : wb + " ahead", verdict});
        }
    }

    /** Per scenario and metric, the target with the best median over its repeats in A and in B, among targets in both. */
    private void compareRankings(RunRecord runA, RunRecord runB) {
        agreement.add(new String[] {"scenario", "metric", "best in A", "best in B", "agreement"});
        List<Result> a = Pairs.ok(runA);
        List<Result> b = Pairs.ok(runB);
        Set<String> scenarios = new LinkedHashSet<>();
        a.forEach(r -> scenarios.add(r.scenario()));
        for (String scenario : scenarios) {
            Set<String> targets = new LinkedHashSet<>();
            a.stream().filter(r -> scenario.equals(r.scenario())).forEach(r -> targets.add(r.target()));
            targets.retainAll(b.stream().filter(r -> scenario.equals(r.scenario())).map(Result::target).toList());
            if (targets.size() < 2) {
                continue;
            }
            for (Metric m : RANKED) {
                String bestA = best(a, scenario, targets, m);
                String bestB = best(b, scenario, targets, m);
                if (bestA == null || bestB == null) {
                    continue;
                }
                boolean same = bestA.equals(bestB);
                rankChanges += same ? 0 : 1;
                agreement.add(new String[] {scenario, m.summaryName(), bestA, bestB, same ? "agree" : "rank changed"});
            }
        }
    }

    private static String best(List<Result> results, String scenario, Set<String> targets, Metric m) {
        String best = null;
        double bestValue = Double.NaN;
        for (String target : targets) {
            double[] v = results.stream().filter(r -> target.equals(r.target()) && scenario.equals(r.scenario()))
                    .map(m::read).filter(Objects::nonNull).mapToDouble(Double::doubleValue).sorted().toArray();
            if (v.length == 0) {
                continue;
            }
            double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
            if (best == null || (m.higherIsBetter() ? median > bestValue : median < bestValue)) {
                best = target;
                bestValue = median;
            }
        }
        return best;
    }


    private static String verdictKey(RepeatSummary.PairVerdict v) {
        return v.scenario() + "\n" + v.metric() + "\n" + v.a() + "\n" + v.b();
    }

    private static List<RepeatSummary.PairVerdict> verdicts(RunRecord run) {
        return run.summaries().summary() == null || run.summaries().summary().verdicts() == null ? List.of() : run.summaries().summary().verdicts();
    }

    private static boolean repeated(RunRecord run) {
        return run.results().stream().anyMatch(r -> r.jvm() > 1);
    }

    private static Double ratio(Metric m, Pairs.Pair p) {
        return ratio(m.read(p.a()), m.read(p.b()));
    }

    private static Double ratio(Double a, Double b) {
        return a == null || b == null || a == 0 ? null : Math.round(b / a * 1000) / 1000.0;
    }

    private static Double median(RepeatSummary.Median estimate) {
        return estimate == null ? null : estimate.median();
    }

    /** summary.estimates keyed by target, scenario and metric. */
    private static Map<String, RepeatSummary.Median> estimates(RunRecord run) {
        Map<String, RepeatSummary.Median> m = new LinkedHashMap<>();
        if (run.summaries().summary() != null && run.summaries().summary().estimates() != null) {
            run.summaries().summary().estimates().forEach(e -> m.put(e.target() + "\n" + e.scenario() + "\n" + e.metric(), e));
        }
        return m;
    }

    private static boolean within(Double ratio) {
        return ratio != null && ratio >= LOW && ratio <= HIGH;
    }

    private static String fmt(Double ratio) {
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.3f", ratio);
    }
}
