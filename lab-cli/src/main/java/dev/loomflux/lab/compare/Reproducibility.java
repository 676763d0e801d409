package dev.loomflux.lab.compare;

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
final class Reproducibility {
    static final double LOW = 0.90;
    static final double HIGH = 1.10;
    /** The metrics of summary.verdicts; rankings of single runs use the same three. */
    private static final List<Metric> RANKED = List.of(Metric.THROUGHPUT, Metric.P50, Metric.P99);

    /** Ratios are B / A, rounded to the 3 decimals printed, so a printed 1.100 is within the goal. */
    record Row(Pairs.Pair pair, Double throughput, Double p50, Double p99) {
        boolean throughputOk() {
            return within(throughput);
        }

        boolean p50Ok() {
            return within(p50);
        }
    }

    private final Pairs pairs;
    private final List<Row> rows = new ArrayList<>();
    private final List<String[]> agreement = new ArrayList<>();
    private final boolean verdicts;
    private int flips;
    private int weaker;
    private int rankChanges;

    private Reproducibility(Pairs pairs, boolean verdicts) {
        this.pairs = pairs;
        this.verdicts = verdicts;
    }

    static Reproducibility of(Map<String, Object> runA, Map<String, Object> runB) {
        // Single runs carry verdicts too, all "too few repeats": comparing those would always agree.
        boolean verdicts = repeated(runA) && repeated(runB) && !verdicts(runA).isEmpty() && !verdicts(runB).isEmpty();
        Reproducibility r = new Reproducibility(Pairs.of(runA, runB), verdicts);
        for (Pairs.Pair p : r.pairs.matched()) {
            r.rows.add(new Row(p, ratio(Metric.THROUGHPUT, p), ratio(Metric.P50, p), ratio(Metric.P99, p)));
        }
        if (verdicts) {
            r.compareVerdicts(verdicts(runA), verdicts(runB));
        } else {
            r.compareRankings(runA, runB);
        }
        return r;
    }

    List<String[]> table() {
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"target", "scenario", "throughput A", "throughput B", "ratio B/A", "p50 B/A", "p99 B/A", "both steady", "goal"});
        for (Row r : rows) {
            String unsteady = r.pair().unsteady();
            out.add(new String[] {r.pair().target(), r.pair().where(), Comparison.fmt(Metric.THROUGHPUT.read(r.pair().a())),
                    Comparison.fmt(Metric.THROUGHPUT.read(r.pair().b())), fmt(r.throughput()), fmt(r.p50()), fmt(r.p99()),
                    unsteady.isEmpty() ? "yes" : "no: " + unsteady, r.throughputOk() && r.p50Ok() ? "ok" : "MISSED"});
        }
        return out;
    }

    /** The title of the agreement table: what was compared. */
    String agreementTitle() {
        return verdicts ? "verdicts of the two runs (summary.verdicts):"
                : "best target per scenario and metric (single runs carry no verdicts, so this is a ranking, not a verdict):";
    }

    List<String[]> agreementTable() {
        return agreement;
    }

    List<String> unmatched() {
        return pairs.unmatched();
    }

    String unsteadyLine() {
        return pairs.unsteadyLine("their ratios describe a moving target");
    }

    String summary() {
        double[] t = rows.stream().map(Row::throughput).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        String range = t.length == 0 ? "-" : fmt(Arrays.stream(t).min().getAsDouble()) + "-" + fmt(Arrays.stream(t).max().getAsDouble());
        int m = rows.size();
        return String.format(Locale.ROOT, "throughput ratios min-max %s; %d of %d within %.2f-%.2f; p50 within +-10%%: %d of %d; verdict flips: %s",
                range, rows.stream().filter(Row::throughputOk).count(), m, LOW, HIGH, rows.stream().filter(Row::p50Ok).count(), m,
                verdicts ? flips + (weaker > 0 ? " (weaker: " + weaker + ")" : "") : "n/a (single runs); rank changes: " + rankChanges);
    }

    /** Same winner, or no winner in both: agree; a winner in one only: weaker; two different winners: FLIP. */
    private void compareVerdicts(List<Map<String, Object>> a, List<Map<String, Object>> b) {
        agreement.add(new String[] {"scenario", "metric", "targets", "run A", "run B", "agreement"});
        Map<String, Map<String, Object>> byKey = new LinkedHashMap<>();
        b.forEach(v -> byKey.put(verdictKey(v), v));
        for (Map<String, Object> va : a) {
            Map<String, Object> vb = byKey.get(verdictKey(va));
            if (vb == null) {
                continue;
            }
            Object wa = winner(va);
            Object wb = winner(vb);
            String verdict = Objects.equals(wa, wb) ? "agree" : wa == null || wb == null ? "weaker" : "FLIP";
            flips += verdict.equals("FLIP") ? 1 : 0;
            weaker += verdict.equals("weaker") ? 1 : 0;
            agreement.add(new String[] {(String) va.get("scenario"), (String) va.get("metric"), va.get("a") + " vs " + va.get("b"),
                    wa == null ? "no verdict" : wa + " ahead", wb == null ? "no verdict" : wb + " ahead", verdict});
        }
    }

    /** Per scenario and metric, the target with the best median over its repeats in A and in B, among targets in both. */
    @SuppressWarnings("unchecked")
    private void compareRankings(Map<String, Object> runA, Map<String, Object> runB) {
        agreement.add(new String[] {"scenario", "metric", "best in A", "best in B", "agreement"});
        List<Map<String, Object>> a = Pairs.ok((List<Map<String, Object>>) runA.get("results"));
        List<Map<String, Object>> b = Pairs.ok((List<Map<String, Object>>) runB.get("results"));
        Set<String> scenarios = new LinkedHashSet<>();
        a.forEach(r -> scenarios.add((String) r.get("scenario")));
        for (String scenario : scenarios) {
            Set<String> targets = new LinkedHashSet<>();
            a.stream().filter(r -> scenario.equals(r.get("scenario"))).forEach(r -> targets.add((String) r.get("target")));
            targets.retainAll(b.stream().filter(r -> scenario.equals(r.get("scenario"))).map(r -> r.get("target")).toList());
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
                agreement.add(new String[] {scenario, metricName(m), bestA, bestB, same ? "agree" : "rank changed"});
            }
        }
    }

    private static String best(List<Map<String, Object>> results, String scenario, Set<String> targets, Metric m) {
        String best = null;
        double bestValue = Double.NaN;
        for (String target : targets) {
            double[] v = results.stream().filter(r -> target.equals(r.get("target")) && scenario.equals(r.get("scenario")))
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

    /** The names summary.verdicts uses, so both agreement tables read alike. */
    private static String metricName(Metric m) {
        return m == Metric.THROUGHPUT ? "throughput_rps" : m.id() + "_ms";
    }

    private static Object winner(Map<String, Object> v) {
        return Boolean.TRUE.equals(v.get("significant")) ? v.get("winner") : null;
    }

    private static String verdictKey(Map<String, Object> v) {
        return v.get("scenario") + "\n" + v.get("metric") + "\n" + v.get("a") + "\n" + v.get("b");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> verdicts(Map<String, Object> run) {
        return run.get("summary") instanceof Map<?, ?> s && s.get("verdicts") instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    @SuppressWarnings("unchecked")
    private static boolean repeated(Map<String, Object> run) {
        return ((List<Map<String, Object>>) run.get("results")).stream().anyMatch(r -> r.get("repeat") instanceof Number n && n.intValue() > 1);
    }

    private static Double ratio(Metric m, Pairs.Pair p) {
        Double a = m.read(p.a());
        Double b = m.read(p.b());
        return a == null || b == null || a == 0 ? null : Math.round(b / a * 1000) / 1000.0;
    }

    private static boolean within(Double ratio) {
        return ratio != null && ratio >= LOW && ratio <= HIGH;
    }

    private static String fmt(Double ratio) {
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.3f", ratio);
    }
}
