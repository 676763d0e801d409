package dev.loomflux.lab.report;

import dev.loomflux.lab.result.CapacityLadder;
import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.ScenarioPart;
import dev.loomflux.lab.result.Survival;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.verdict.Comparisons;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * The executive summary: per scenario a headline a reader takes in at a glance, and the lines under it.
 *
 * <p>Verdicts are results.json's, used as they are: the paired design's comparisons, or the summary
 * over repeats. One run per target gives
 * none: the CPU speed of the lab's VM was measured to vary by up to 40% over tens of seconds, so a
 * difference between two single runs cannot be told from a change of the machine, however many
 * per-second samples each has. A single run therefore states its figures and says so.
 */
final class Findings {
    /** One target's figure: the median of its results (one each unless --repeat 2). */
    private record TargetFigure(String target, double value, boolean steady) {
    }

    private static final List<Metric> METRICS = Metric.SUMMARIZED;
    private static final String NO_CAPACITY = "no capacity found (see \"Capacity at the SLO\").";

    private Findings() {
    }

    /** Every scenario's headline, or a sweep's one: what the console prints as the run's answer, without the lines under it. */
    static List<Paragraph> headlines(RunRecord root) {
        if (root.summaries().sweep() != null) {
            return List.of(sweepHeadline(root));
        }
        return ReportContent.scenarios(root).stream().map(s -> headline(root, s, ReportContent.ok(root, s))).toList();
    }

    /** The scenario's headline (bold lead) and the lines under it: the other metrics, the details, the errors. */
    static List<Paragraph> summary(RunRecord root, String scenario, List<Result> ok) {
        List<Paragraph> lines = new ArrayList<>(List.of(headline(root, scenario, ok)));
        if (ok.isEmpty() || capacityOnly(ok) || LadderSection.of(root, scenario) != null) {
            return lines; // a capacity's figures per rung are in its own section
        }
        List<PairComparison> pairs = pairs(root, scenario);
        if (!pairs.isEmpty()) {
            // The headline said throughput; its details, then each other metric once.
            lines.addAll(notes(pairs, Metric.THROUGHPUT));
            for (Metric m : Comparisons.METRICS) {
                if (m != Metric.THROUGHPUT && pairs.stream().anyMatch(c -> c.metricKind() == m)) {
                    lines.add(Paragraph.bullet(m.label() + ": " + paired(pairs, m) + "."));
                    lines.addAll(notes(pairs, m));
                    if (m == Metric.CPU_PER_REQUEST) {
                        lines.addAll(CpuBreakdown.splits(pairs, ok, root.paired().blocks() == null ? List.of()
                                : root.paired().blocks().stream().filter(b -> b.scenario().equals(scenario) && b.cell() == null).toList()));
                    }
                }
            }
        } else if (root.jvmsPerTarget() < Stats.MIN_REPEATS && SurvivalSection.of(root, scenario) == null) {
            String runs = runs(root.jvmsPerTarget());
            METRICS.forEach(m -> lines.add(fromRuns(ranked(ok, m), m, runs)));
        }
        lines.addAll(parts(root, scenario));
        lines.add(errors(ok));
        Paragraph rows = dataRows(ok);
        if (rows != null) {
            lines.add(rows);
        }
        return lines;
    }

    private static Paragraph headline(RunRecord root, String scenario, List<Result> ok) {
        // A death in a shape is the most striking verdict a run can give: it leads, then throughput among the blocks lived through.
        Survival survival = SurvivalSection.of(root, scenario);
        if (survival != null) {
            List<PairComparison> pairs = pairs(root, scenario);
            return Paragraph.headline(scenario, SurvivalSection.headline(survival) + (pairs.isEmpty() ? "" : " Among the blocks lived through: " + paired(pairs, Metric.THROUGHPUT) + "."));
        }
        if (ok.isEmpty()) {
            return Paragraph.headline(scenario, "no successful measurement.");
        }
        if (capacityOnly(ok)) {
            return Paragraph.headline(scenario, capacityHeadline(root, scenario));
        }
        CapacityLadder ladder = LadderSection.of(root, scenario);
        if (ladder != null) {
            return Paragraph.headline(scenario, LadderSection.headline(ladder));
        }
        List<PairComparison> pairs = pairs(root, scenario);
        if (!pairs.isEmpty()) {
            return Paragraph.headline(scenario, paired(pairs, Metric.THROUGHPUT) + ".");
        }
        int repeat = root.jvmsPerTarget();
        return Paragraph.headline(scenario, repeat >= Stats.MIN_REPEATS ? repeatHeadline(root, scenario, ok, repeat)
                : runHeadline(ranked(ok, METRICS.get(0)), runs(repeat)));
    }

    private static boolean capacityOnly(List<Result> ok) {
        return ok.stream().allMatch(r -> r.key().step() != null);
    }

    /** The comparisons of the scenario as a whole: a single flow's, a mix's requests together, any other scenario's. */
    static List<PairComparison> pairs(RunRecord root, String scenario) {
        return ofScenario(root, scenario).stream().filter(PairComparison::wholeScenario).toList();
    }

    private static List<PairComparison> ofScenario(RunRecord root, String scenario) {
        return root.paired().comparisons() == null ? List.of() : root.paired().comparisons().stream().filter(c -> c.scenario().equals(scenario) && c.cell() == null).toList();
    }

    /** One line per flow of a mix and per step: each of its comparisons in words, why one is undecided left to the matrix. */
    private static List<Paragraph> parts(RunRecord root, String scenario) {
        Map<String, List<PairComparison>> byWhere = new LinkedHashMap<>();
        ofScenario(root, scenario).stream().filter(c -> !c.wholeScenario()).forEach(c -> byWhere.computeIfAbsent(c.where(), k -> new ArrayList<>()).add(c));
        List<Paragraph> out = new ArrayList<>();
        byWhere.forEach((where, cs) -> out.add(Paragraph.bullet(where + ": " + String.join("; ", cs.stream().map(PairComparison::withoutNote)
                .map(PairComparison::sentence).toList()) + ".")));
        return out;
    }

    /**
     * How each target's own copy of table item grew under the scenario's load: the creates no delete followed. In the paired
     * design the rows counted after all rounds (a target's sets share its copy), from the seeded rows at its reset before them.
     */
    static Paragraph dataRows(List<Result> ok) {
        Map<String, Result.DataRows> byTarget = new LinkedHashMap<>();
        ok.stream().filter(r -> r.load().dataRows() != null).forEach(r -> byTarget.putIfAbsent(r.target(), r.load().dataRows()));
        if (byTarget.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        byTarget.forEach((t, d) -> parts.add(String.format(Locale.ROOT, "%s %,d (%+,d)", t, d.after(), d.growth())));
        long reset = byTarget.values().iterator().next().atReset();
        boolean same = byTarget.values().stream().allMatch(d -> d.atReset() == reset);
        return Paragraph.bullet("Table item: each target wrote into its own copy, " + (same ? String.format(Locale.ROOT, "%,d rows", reset) : "its seeded rows")
                + " when reset before its load; after it " + String.join(", ", parts) + ". Rows left are creates that no delete followed in the same "
                + "iteration: one cut off at the end of its load or failed after its create.");
    }

    private static String runs(int repeat) {
        return repeat == 1 ? "one run" : repeat + " runs each";
    }

    /** Highest capacity first: the medians over searches when there were several, else each target's one search. */
    private static String capacityHeadline(RunRecord root, String scenario) {
        if (root.summaries().capacitySummary() != null) {
            List<CapacityMedian> cells = new ArrayList<>(root.summaries().capacitySummary().stream().filter(c -> c.scenario().equals(scenario)).toList());
            if (cells.isEmpty()) {
                return NO_CAPACITY;
            }
            cells.sort(Comparator.comparingDouble(CapacityMedian::medianRps).reversed());
            return "median capacity at " + cells.get(0).slo() + ": " + String.join(", ", cells.stream().map(c -> c.target() + " "
                    + Cells.num(c.medianRps()) + " rps (" + Cells.num(c.minRps()) + "-" + Cells.num(c.maxRps()) + ")").toList())
                    + ", over " + cells.get(0).n() + " searches each (min-max in parentheses; see \"Capacity at the SLO\").";
        }
        List<CapacitySearchResult> cells = new ArrayList<>((root.summaries().capacity() == null ? List.<CapacitySearchResult>of() : root.summaries().capacity()).stream()
                .filter(c -> c.scenario().equals(scenario)).toList());
        if (cells.isEmpty()) {
            return NO_CAPACITY;
        }
        cells.sort(Comparator.comparingInt(CapacitySearchResult::capacityRps).reversed());
        List<String> parts = cells.stream().map(c -> c.target() + " " + c.capacityRps() + " rps").toList();
        String slo = cells.get(0).slo();
        return "capacity at " + slo + ": " + String.join(", ", parts) + "; one search each, so no verdict: fresh JVMs of one target "
                        + "settle apart (./lab capacity --repeat 3 for medians).";
    }

    private static String runHeadline(List<TargetFigure> throughput, String runs) {
        TargetFigure top = throughput.get(0);
        String value = Cells.num((top.value())) + " rps" + (top.steady() ? "" : ", not steady");
        List<String> unsteady = throughput.stream().filter(f -> !f.steady()).map(TargetFigure::target).toList();
        String steadiness = unsteady.isEmpty() ? " Every result was steady." : " Not steady: " + String.join(", ", unsteady) + " (see Caveats).";
        return (throughput.size() == 1 ? top.target() + " alone: " + value + " in " + runs + "."
                : top.target() + " had the highest throughput (" + value + ") in " + runs + "; no verdict from " + runs + ".") + steadiness;
    }

    /**
     * One sentence per scenario that answers the question, in the words a reader would use: "mvc
     * serves 1.20x mvc-vt's and 1.66x webflux's throughput; median latency: mvc lowest (clear against
     * mvc-vt, webflux); p99: no clear difference". Every claim in it is a significant verdict of
     * results.json's summary; the ratios are of the medians that verdict compared.
     */
    private static String repeatHeadline(RunRecord root, String scenario, List<Result> ok, int repeat) {
        List<String> clauses = new ArrayList<>();
        for (Metric m : METRICS) {
            List<TargetFigure> ranked = ranked(ok, m);
            TargetFigure top = ranked.get(0);
            if (ranked.size() < 2) {
                return top.target() + " alone: " + Cells.num((top.value())) + " rps (median of " + repeat + " repeats).";
            }
            List<String> clear = new ArrayList<>();
            List<String> unclear = new ArrayList<>();
            List<String> unsteady = new ArrayList<>();
            for (TargetFigure other : ranked.subList(1, ranked.size())) {
                RepeatSummary.PairVerdict v = verdict(root, scenario, m.summaryName(), top.target(), other.target());
                if (v != null && top.target().equals(v.clearWinner())) {
                    clear.add(m.higherIsBetter() ? ratio(top.value(), other.value()) + "x " + other.target() + "'s" : other.target());
                } else if (v != null && v.text().startsWith("not steady")) {
                    unsteady.add(other.target());
                } else {
                    unclear.add(other.target());
                }
            }
            clauses.add(clause(m, top.target(), clear, unclear, unsteady));
        }
        List<String> notSteady = new ArrayList<>();
        ok.stream().filter(r -> !r.steady()).forEach(r -> notSteady.add(r.target() + " " + r.jvmLabel()));
        return String.join("; ", clauses) + ". Medians of " + repeat + " repeats per target, 95% confidence; "
                + (notSteady.isEmpty() ? "every result steady." : "not steady: " + String.join(", ", notSteady)
                + " (their pairs get no verdict; see Caveats).");
    }

    private static String clause(Metric m, String top, List<String> clear, List<String> unclear, List<String> unsteady) {
        String label = m.words();
        if (clear.isEmpty() && unsteady.isEmpty()) {
            return label + ": no clear difference";
        }
        List<String> parts = new ArrayList<>();
        if (clear.isEmpty()) {
            parts.add(label + ": " + top + (m.higherIsBetter() ? " highest" : " lowest"));
        } else {
            parts.add(m.higherIsBetter() ? top + " serves " + String.join(" and ", clear) + " throughput"
                    : label + ": " + top + " lowest (clear against " + String.join(", ", clear) + ")");
        }
        if (!unclear.isEmpty()) {
            parts.add("no clear difference from " + String.join(", ", unclear));
        }
        if (!unsteady.isEmpty()) {
            parts.add("no verdict against " + String.join(", ", unsteady) + " (not steady)");
        }
        return String.join(", ", parts);
    }

    private static String ratio(double a, double b) {
        return b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", a / b);
    }

    /** The verdict on x and y in either order, or null. */
    private static RepeatSummary.PairVerdict verdict(RunRecord root, String scenario, String metric, String x, String y) {
        for (RepeatSummary.PairVerdict v : verdicts(root)) {
            if (v.scenario().equals(scenario) && v.wholeScenario() && v.metric().equals(metric)
                    && (v.a().equals(x) && v.b().equals(y) || v.a().equals(y) && v.b().equals(x))) {
                return v;
            }
        }
        return null;
    }

    /** Every verdict of the run: the details behind the headlines. */
    static Table verdictTable(RunRecord root) {
        List<List<String>> rows = new ArrayList<>();
        for (RepeatSummary.PairVerdict v : verdicts(root)) {
            Metric m = Metric.bySummaryName(v.metric());
            String metric = m == null ? v.metric() : m.label().toLowerCase(Locale.ROOT);
            rows.add(List.of(v.where(), metric, v.a() + " vs " + v.b(), v.text()));
        }
        return new Table("Verdicts (medians of repeats)", List.of("scenario", "metric", "pair", "verdict"), rows);
    }

    private static List<RepeatSummary.PairVerdict> verdicts(RunRecord root) {
        return root.summaries().summary() == null ? List.of() : root.summaries().summary().verdicts();
    }

    private static Paragraph fromRuns(List<TargetFigure> ranked, Metric m, String runs) {
        double first = ranked.get(0).value();
        List<String> parts = new ArrayList<>();
        for (TargetFigure f : ranked) {
            List<String> notes = new ArrayList<>();
            if (f != ranked.get(0)) {
                notes.add(Cells.pct(first == 0 ? 0 : (f.value() - first) / first * 100));
            }
            if (!f.steady()) {
                notes.add("not steady");
            }
            parts.add(f.target() + " " + Cells.num((f.value())) + " " + m.unit() + (notes.isEmpty() ? "" : " (" + String.join(", ", notes) + ")"));
        }
        return Paragraph.bullet(m.label() + ": " + String.join(", ", parts) + "; " + runs + ": no verdict (run --repeat 3 for one)");
    }

    private static List<TargetFigure> ranked(List<Result> ok, Metric m) {
        Map<String, List<Result>> byTarget = new LinkedHashMap<>();
        ok.forEach(r -> byTarget.computeIfAbsent(r.target(), k -> new ArrayList<>()).add(r));
        List<TargetFigure> out = new ArrayList<>();
        byTarget.forEach((target, rs) -> out.add(new TargetFigure(target,
                new Median().evaluate(rs.stream().map(Findings::asScenario).mapToDouble(r -> m.read(r) == null ? Double.NaN : m.read(r)).toArray()),
                rs.stream().allMatch(Result::steady))));
        Comparator<TargetFigure> byValue = Comparator.comparingDouble(TargetFigure::value);
        out.sort(m.higherIsBetter() ? byValue.reversed() : byValue);
        return out;
    }

    /** The figures that stand for its scenario, as its verdicts judge them: a single flow's iterations, else the result's own. */
    private static Result asScenario(Result r) {
        Result whole = r.part(ScenarioPart.ofResults(List.of(r)).get(0));
        return whole == null ? r : whole;
    }

    private static Paragraph errors(List<Result> ok) {
        List<String> parts = new ArrayList<>();
        for (Result r : ok) {
            long errors = r.load().errors().total();
            if (errors > 0) {
                parts.add(String.format(Locale.ROOT, "%s %d (%.2f%% of requests)", r.target(), errors, 100.0 * errors / Math.max(1, r.load().requests())));
            }
        }
        return Paragraph.bullet("Errors: " + (parts.isEmpty() ? "none" : String.join(", ", parts)));
    }

    /** A sweep's headline and a line per crossover. */
    static List<Paragraph> sweepSummary(RunRecord root) {
        List<Paragraph> lines = new ArrayList<>(List.of(sweepHeadline(root)));
        if (root.summaries().sweep().crossovers().isEmpty()) {
            lines.add(Paragraph.bullet("Crossovers: none where both sides are clear."));
        }
        root.summaries().sweep().crossovers().forEach(c -> lines.add(Paragraph.bullet("Crossover: " + c)));
        return lines;
    }

    /** What was varied, and how many cells have a clear winner. */
    private static Paragraph sweepHeadline(RunRecord root) {
        SweepMap map = root.summaries().sweep();
        int[] clear = map.clearOfAll();
        String axes = String.join(" x ", map.axes().stream().map(a -> a.label() + " " + a.values()).toList());
        return Paragraph.headline("Sweep", String.join(", ", map.targets()) + " over " + axes + ": " + map.cells().size() + " cells; a clear winner in "
                + clear[0] + " of " + clear[1] + " cell x metric pairs" + (root.jvmsPerTarget() < Stats.MIN_REPEATS
                ? " (one run per cell gives no verdicts: --repeat 3)." : ", medians of " + root.jvmsPerTarget() + " repeats, 95% confidence."));
    }

    /** Every pair's outcome on one metric, from the per-round ratios; why one is undecided goes one line below ({@link #notes}). */
    private static String paired(List<PairComparison> pairs, Metric m) {
        return String.join("; ", pairs.stream().filter(c -> c.metricKind() == m).map(PairComparison::withoutNote).map(PairComparison::sentence).toList());
    }

    /** Why a pair has no winner although its interval would give one (drift, sets that disagree), one detail line each. */
    private static List<Paragraph> notes(List<PairComparison> pairs, Metric m) {
        return pairs.stream().filter(c -> c.metricKind() == m && c.judgement().note() != null).map(c -> Paragraph.detail(c.a() + " vs " + c.b() + ": " + c.judgement().note() + ".")).toList();
    }
}
