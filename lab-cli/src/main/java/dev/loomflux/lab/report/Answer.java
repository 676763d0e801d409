package dev.loomflux.lab.report;

import dev.loomflux.lab.result.CapacityLadder;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What opens a report, above everything else: one matrix of pairs x metrics, each cell the outcome
 * (the better target, equivalent or undecided) with the ratio a / b and its 95% interval, and in
 * report.html the same comparisons as a forest plot. From the paired design's comparisons, else from
 * the verdicts over repeats; one line when there is nothing to compare. A sweep opens with its map.
 */
final class Answer {
    /** A winner, equivalent (the whole interval within the minimum effect) or neither; how the forest plot colours it. */
    enum Standing { WINNER, EQUIVALENT, UNDECIDED }

    /**
     * One comparison: two targets on one metric of one scenario, or of one flow or step of it.
     *
     * @param scenario where, as the matrix and the forest plot name it: {@code json}, a step {@code crud/create (POST /items)}
     * @param ratio a / b, null when nothing could be compared
     * @param label "mvc better", "equivalent", "undecided" or "not steady"
     * @param text  the comparison in words, as the summary says it
     * @param quiet "; not quiet: mvc set 2 (...)" when a JVM of either target never got quiet in the rounds ({@link Quiet}), else ""
     */
    record Row(String scenario, Metric metric, String metricName, String a, String b, Double ratio, Double low, Double high, Standing outcome,
               String label, String text, String quiet) {
        String pair() {
            return a + " / " + b;
        }

        /** "1.419 (1.397-1.447)". */
        String ratioText() {
            if (ratio == null) {
                return "no ratio";
            }
            return Answer.ratio(ratio) + (low == null || high == null ? "" : " (" + Answer.ratio(low) + "-" + Answer.ratio(high) + ")");
        }
    }

    private Answer() {
    }

    /** The section that opens the report, or null for a sweep. */
    static Section of(RunRecord root) {
        if (root.summaries().sweep() != null) {
            return null;
        }
        List<Row> rows = rows(root);
        // Deaths in shapes are a verdict of their own, not a ratio: said above the matrix, or in its place.
        List<Paragraph> survival = SurvivalSection.deaths(root).stream().map(s -> Paragraph.plain(s.where() + ": " + SurvivalSection.headline(s))).toList();
        if (rows.isEmpty()) {
            return new Section("", survival.isEmpty() ? List.of(Paragraph.plain(nothingToCompare(root))) : survival, List.of(), List.of());
        }
        boolean parts = root.paired().comparisons() != null && root.paired().comparisons().stream().anyMatch(c -> c.part().flow() != null)
                || root.summaries().summary() != null && root.summaries().summary().verdicts().stream().anyMatch(v -> v.flow() != null);
        return new Section("", survival, List.of(matrix(rows, caption(root), parts)), List.of(), Forest.svg(rows));
    }

    /** Every comparison of the run: the paired design's, else (with enough repeats) the verdicts over repeats. */
    private static List<Row> rows(RunRecord root) {
        List<Row> rows = new ArrayList<>();
        if (paired(root)) {
            List<Quiet> quiet = Quiet.of(root);
            root.paired().comparisons().stream().filter(c -> c.cell() == null).forEach(c -> rows.add(row(c, Quiet.note(quiet, c.scenario(), c.a(), c.b()))));
        } else if (root.jvmsPerTarget() >= Stats.MIN_REPEATS && root.summaries().summary() != null && root.summaries().capacity() == null) {
            root.summaries().summary().verdicts().forEach(v -> rows.add(row(v)));
        }
        return rows;
    }

    static boolean paired(RunRecord root) {
        return root.paired().comparisons() != null && root.paired().comparisons().stream().anyMatch(c -> c.cell() == null);
    }

    private static Row row(PairComparison c, String quiet) {
        Metric m = c.metricKind();
        boolean won = PairComparison.A.equals(c.outcome()) || PairComparison.B.equals(c.outcome());
        Standing outcome = won ? Standing.WINNER : PairComparison.EQUIVALENT.equals(c.outcome()) ? Standing.EQUIVALENT : Standing.UNDECIDED;
        String label = won ? (PairComparison.A.equals(c.outcome()) ? c.a() : c.b()) + " better" : c.outcome();
        boolean ci = c.estimate().ci().size() == 2;
        return new Row(where(c.where(), c.part().request()), m, m == null ? c.metric() : m.label(), c.a(), c.b(), c.estimate().ratio(), ci ? c.estimate().ci().get(0) : null,
                ci ? c.estimate().ci().get(1) : null, outcome, label, c.sentence(), quiet);
    }

    /** A verdict gives B's median relative to A's in percent; a / b is 1 / (1 + that), its interval's ends swapped. */
    private static Row row(RepeatSummary.PairVerdict v) {
        Metric m = Metric.bySummaryName(v.metric());
        String winner = v.clearWinner();
        String label = winner != null ? winner + " better" : v.text().startsWith("not steady") ? "not steady" : "undecided";
        return new Row(where(v.where(), v.request()), m, m == null ? v.metric() : m.label(), v.a(), v.b(), inverse(v.diffPct()), inverse(v.ciHighPct()),
                inverse(v.ciLowPct()), winner != null ? Standing.WINNER : Standing.UNDECIDED, label, v.text(), "");
    }

    /** A step's where with the request it sends, so that a reader knows which request it was: "crud/create (POST /items)". */
    private static String where(String where, String request) {
        return request == null ? where : where + " (" + request + ")";
    }

    private static Double inverse(Double pct) {
        return pct == null || 1 + pct / 100 <= 0 ? null : 1 / (1 + pct / 100);
    }

    private static String caption(RunRecord root) {
        String band = Cells.num(Stats.MIN_EFFECT_PCT) + "%";
        return paired(root) ? "The answer: ratio a / b over the rounds, with its 95% interval; a win needs the interval wholly beyond ±" + band
                + ", equivalent wholly within"
                : "The answer: ratio a / b of the medians of " + root.jvmsPerTarget() + " repeats, with its 95% interval; a winner leads by " + band + " or more";
    }

    /**
     * Pairs down, metrics across; the scenario leads each pair when there are several, and a flow scenario's rows go scenario
     * first, then each flow and step of it, every pair under each (a step has no CPU per request of its own: "-").
     */
    private static Table matrix(List<Row> rows, String caption, boolean parts) {
        List<String> metrics = rows.stream().map(Row::metricName).distinct().toList();
        boolean scenarios = rows.stream().map(Row::scenario).distinct().count() > 1;
        List<String> header = new ArrayList<>(List.of(parts ? "scenario, flow or step: a / b" : scenarios ? "scenario: a / b" : "a / b"));
        for (String m : metrics) {
            Metric kind = rows.stream().filter(r -> r.metricName().equals(m)).findFirst().orElseThrow().metric();
            header.add(kind == null ? m : m + " (" + (kind.higherIsBetter() ? "higher" : "lower") + " is better)");
        }
        List<List<String>> cells = new ArrayList<>();
        List<String> pairs = rows.stream().map(Answer::key).distinct().toList();
        for (String pair : pairs) {
            List<Row> of = rows.stream().filter(r -> key(r).equals(pair)).toList();
            List<String> line = new ArrayList<>(List.of((scenarios ? of.get(0).scenario() + ": " : "") + of.get(0).pair()));
            for (String m : metrics) {
                line.add(of.stream().filter(r -> r.metricName().equals(m)).findFirst().map(r -> r.label() + ": " + r.ratioText() + r.quiet()).orElse("-"));
            }
            cells.add(line);
        }
        return new Table(caption, header, cells);
    }

    private static String key(Row r) {
        return r.scenario() + "\n" + r.a() + "\n" + r.b();
    }

    /** One line for a run that has no comparison, saying why. */
    private static String nothingToCompare(RunRecord root) {
        int targets = root.experiment().targets().size();
        if (targets < 2) {
            return "One target, so nothing to compare: its figures follow.";
        }
        if (root.summaries().capacity() != null) {
            return "Capacity searches are not compared pair by pair: each target's capacity at the SLO follows.";
        }
        if (root.summaries().capacityLadder() != null && !root.summaries().capacityLadder().isEmpty()) {
            return String.join(" ", root.summaries().capacityLadder().stream().map(l -> l.scenario() + ": " + String.join("; ",
                    l.pairs().stream().map(CapacityLadder.Ratio::describe).toList()) + ".").toList())
                    + " Each target's capacity and every rung follow (\"Capacity at the SLO, in paired rounds\").";
        }
        if (root.experiment().design() != null && "paired".equals(root.experiment().design().kind())) {
            return "No comparison: no round compared two targets (see Caveats).";
        }
        int n = root.jvmsPerTarget();
        return n < Stats.MIN_REPEATS ? "Nothing compared: " + (n == 1 ? "one run per target gives" : n + " runs per target give") + " no verdict "
                + "(--repeat " + Stats.MIN_REPEATS + " or --design paired gives one)."
                : "No verdicts: too few successful runs per target to compare (see Caveats).";
    }

    static String ratio(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
