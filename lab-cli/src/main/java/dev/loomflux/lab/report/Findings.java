package dev.loomflux.lab.report;

import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.verdict.Comparisons;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.stats.Paired;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * The executive summary and the caveats: what the numbers support, and what limits them.
 *
 * <p>Only repeats give verdicts (results.json's summary, used as it is). One run per target gives
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

    /** The scenario's headline (bold lead) and its bullet lines. */
    static List<Paragraph> summary(RunRecord root, String scenario, List<Result> ok) {
        List<Paragraph> lines = new ArrayList<>();
        if (ok.isEmpty()) {
            lines.add(Paragraph.headline(scenario, "no successful measurement."));
            return lines;
        }
        if (ok.stream().allMatch(r -> r.key().step() != null)) {
            lines.add(Paragraph.headline(scenario, capacityHeadline(root, scenario)));
            return lines;
        }
        List<PairComparison> pairs = root.comparisons() == null ? List.of()
                : root.comparisons().stream().filter(c -> c.scenario().equals(scenario) && c.cell() == null).toList();
        if (!pairs.isEmpty()) {
            lines.add(Paragraph.headline(scenario, paired(pairs, Metric.THROUGHPUT) + "."));
            for (Metric m : Comparisons.METRICS) {
                if (pairs.stream().anyMatch(c -> c.metricKind() == m)) {
                    lines.add(Paragraph.bullet(m.label() + ": " + paired(pairs, m) + "."));
                }
            }
            lines.add(errors(ok));
            return lines;
        }
        int repeat = root.jvmsPerTarget();
        if (repeat >= Stats.MIN_REPEATS) {
            lines.add(Paragraph.headline(scenario, repeatHeadline(root, scenario, ok, repeat)));
        } else {
            String runs = repeat == 1 ? "one run" : repeat + " runs each";
            lines.add(Paragraph.headline(scenario, runHeadline(ranked(ok, METRICS.get(0)), runs)));
            METRICS.forEach(m -> lines.add(fromRuns(ranked(ok, m), m, runs)));
        }
        lines.add(errors(ok));
        return lines;
    }

    /** Highest capacity first: the medians over searches when there were several, else each target's one search. */
    private static String capacityHeadline(RunRecord root, String scenario) {
        if (root.capacitySummary() != null) {
            List<CapacityMedian> cells = new ArrayList<>(root.capacitySummary().stream().filter(c -> c.scenario().equals(scenario)).toList());
            if (cells.isEmpty()) {
                return NO_CAPACITY;
            }
            cells.sort(Comparator.comparingDouble(CapacityMedian::medianRps).reversed());
            return "median capacity at " + cells.get(0).slo() + ": " + String.join(", ", cells.stream().map(c -> c.target() + " "
                    + Cells.num(c.medianRps()) + " rps (" + Cells.num(c.minRps()) + "-" + Cells.num(c.maxRps()) + ")").toList())
                    + ", over " + cells.get(0).n() + " searches each (min-max in parentheses; see \"Capacity at the SLO\").";
        }
        List<CapacitySearchResult> cells = new ArrayList<>((root.capacity() == null ? List.<CapacitySearchResult>of() : root.capacity()).stream()
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
            if (v.scenario().equals(scenario) && v.metric().equals(metric)
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
            rows.add(List.of(v.scenario(), metric, v.a() + " vs " + v.b(), v.text()));
        }
        return new Table("Verdicts (medians of repeats)", List.of("scenario", "metric", "pair", "verdict"), rows);
    }

    private static List<RepeatSummary.PairVerdict> verdicts(RunRecord root) {
        return root.summary() == null ? List.of() : root.summary().verdicts();
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
                new Median().evaluate(rs.stream().mapToDouble(r -> m.read(r) == null ? Double.NaN : m.read(r)).toArray()),
                rs.stream().allMatch(Result::steady))));
        Comparator<TargetFigure> byValue = Comparator.comparingDouble(TargetFigure::value);
        out.sort(m.higherIsBetter() ? byValue.reversed() : byValue);
        return out;
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

    /** A sweep's headline: what was varied, how many cells have a clear winner, and where the winner changes. */
    static List<Paragraph> sweepSummary(RunRecord root) {
        SweepMap map = root.sweep();
        List<Paragraph> lines = new ArrayList<>();
        int[] clear = map.clearOfAll();
        String axes = String.join(" x ", map.axes().stream().map(a -> a.label() + " " + a.values()).toList());
        lines.add(Paragraph.headline("Sweep", String.join(", ", map.targets()) + " over " + axes + ": " + map.cells().size() + " cells; a clear winner in "
                + clear[0] + " of " + clear[1] + " cell x metric pairs" + (root.jvmsPerTarget() < Stats.MIN_REPEATS
                ? " (one run per cell gives no verdicts: --repeat 3)." : ", medians of " + root.jvmsPerTarget() + " repeats, 95% confidence.")));
        if (map.crossovers().isEmpty()) {
            lines.add(Paragraph.bullet("Crossovers: none where both sides are clear."));
        }
        map.crossovers().forEach(c -> lines.add(Paragraph.bullet("Crossover: " + c)));
        return lines;
    }

    /** Every pair's outcome on one metric, from the per-round ratios. */
    private static String paired(List<PairComparison> pairs, Metric m) {
        return String.join("; ", pairs.stream().filter(c -> c.metricKind() == m).map(PairComparison::sentence).toList());
    }

    /** What limits these numbers, one bullet each. */
    static List<Paragraph> caveats(RunRecord root) {
        List<Paragraph> out = new ArrayList<>();
        String kind = root.experiment().profile().kind();
        if (!root.completed()) {
            out.add(Paragraph.bullet("The run did not complete (status " + root.status() + "): results are partial."));
        }
        if (!kind.equals("rate") && root.capacity() == null) {
            out.add(Paragraph.bullet("Closed model (" + kind + "): each user waits for its response before sending again, so when a server "
                    + "saturates it is offered less load and its percentiles are optimistic (coordinated omission). "
                    + "For latency at a given load use --profile rate or ./lab capacity."));
        }
        ExperimentDescription.ThinkDescription think = root.experiment().profile().think();
        if (think != null) {
            out.add(Paragraph.bullet("Think time: every user paused " + (think.minMs() == think.maxMs() ? think.minMs() + " ms"
                    : "between " + think.minMs() + " and " + think.maxMs() + " ms (uniform)") + " after each response, its connection kept open "
                    + "and idle. Throughput then follows users / (latency + pause), set mostly by the pause: latency and CPU per request "
                    + "tell the targets apart."));
        }
        boolean paired = root.comparisons() != null && !root.comparisons().isEmpty();
        if (paired) {
            ExperimentDescription.DesignDescription d = root.experiment().design();
            out.add(Paragraph.bullet("Paired design: every target's JVM was started and warmed first, then all were measured in " + d.rounds() + " rounds of "
                    + Cells.num(d.blockS()) + " s blocks, one block per target per round in a new random order; verdicts come from per-round "
                    + "ratios (95% Wilcoxon intervals) and need the whole interval beyond " + Cells.num(Stats.MIN_EFFECT_PCT) + "%. "
                    + (root.jvmsPerTarget() > 1 ? root.jvmsPerTarget() + " sets of JVMs were measured in the same rounds and pooled round by round; a winner "
                    + "only where every set shows it."
                    : "One set of JVMs: the ratios hold for these JVMs; JVM-to-JVM variation (each JIT compiles its own way) is not covered, "
                    + "--sets 2 or more samples it.")));
            if (root.jvmsPerTarget() > 1 && root.blocks() != null) {
                out.add(Paragraph.bullet(jvmSpread(root) + " A ratio between two targets carries such differences of both its targets' JVMs, which the intervals "
                        + "above, over rounds, do not cover; more sets (--sets) average them (docs/reproducibility.md)."));
            }
            long slow = root.blocks() == null ? 0 : root.blocks().stream()
                    .filter(b -> b.meanMs() != null && b.meanMs() > 0.04 * b.seconds() * 1000).count();
            if (root.blocks() != null) {
                Map<String, Double> rss = new LinkedHashMap<>();
                root.blocks().stream().filter(b -> b.rssMb() != null).forEach(b -> rss.merge(b.target(), b.rssMb(), Math::max));
                if (!rss.isEmpty()) {
                    out.add(Paragraph.bullet("All targets were resident at once; their peak resident memory over the blocks: " + String.join(", ",
                            rss.entrySet().stream().map(e -> e.getKey() + " " + Cells.num(e.getValue()) + " MB").toList())
                            + ". A target idles, with its heap and threads, while the others are measured."));
                }
            }
            long paced = root.blocks() == null ? 0 : root.blocks().stream().filter(Comparisons::paced).count();
            if (paced > 0) {
                out.add(Paragraph.bullet(paced + " of " + root.blocks().size() + " block(s) had fewer than " + Math.round(Comparisons.MIN_BUSY * 100)
                        + "% of the users in a request" + (think == null ? "" : " or a pause") + " on average (Little's law): the load side (the driver's CPU, or the "
                        + "database's where it shares that CPU) set their pace, not the target. Their rounds are left out of the comparisons."));
            }
            if (slow > 0) {
                out.add(Paragraph.bullet(slow + " block(s) had a mean latency above 4% of the block: users start a block together, so its throughput "
                        + "over-counts by up to half the latency over the block. Use a longer --block."));
            }
        } else if (root.jvmsPerTarget() < Stats.MIN_REPEATS) {
            out.add(Paragraph.bullet("Fewer than " + Stats.MIN_REPEATS + " runs per target x scenario: no verdicts. The machine's CPU speed can change "
                    + "by tens of percent within a minute, so a difference between single runs may be the machine's, not the targets'. "
                    + "Use --repeat 3 (or more) for confidence intervals and verdicts."));
        }
        Environment.Pinning pinning = root.environment() == null ? null : root.environment().pinning();
        if (pinning != null && !pinning.applied()) {
            out.add(Paragraph.bullet("CPU pinning was not applied (" + pinning.note() + "): the driver and the target shared CPUs."));
        }
        for (Result r : root.results()) {
            String who = r.target() + " " + r.scenario() + (r.key().step() != null ? " step " + r.key().step()
                    : r.jvm() > 1 ? " " + r.jvmLabel() : "");
            if (!r.ok()) {
                out.add(Paragraph.bullet(who + " failed: " + firstLine(String.valueOf(r.outcome().error())).replaceFirst("; last lines:$", ".") + untilDeath(r)));
                continue;
            }
            if (r.checks().driver() != null && r.checks().driver().saturated()) {
                List<String> agents = r.checks().driver().agents() == null ? List.of() : r.checks().driver().agents().stream()
                        .filter(a -> Boolean.TRUE.equals(a.saturated()))
                        .map(a -> "agent " + a.agent() + " " + Cells.num(a.cpuPctMean()) + "% of its " + a.cpus() + " cores' " + a.cpus() * 100 + "%").toList();
                out.add(Paragraph.bullet(who + ": the driver saturated its CPU (" + (agents.isEmpty() ? Cells.num(r.checks().driver().cpuPctMax()) + "%"
                        : String.join(", ", agents)) + "); the numbers describe the driver, not the target."));
            }
            if (Boolean.TRUE.equals(r.load().behindSchedule())) {
                out.add(Paragraph.bullet(who + ": the driver fell behind the arrival schedule; requests it could not send are missing from the latencies."));
            }
            if (r.load().durationS() != null && r.load().durationS() < 10) {
                out.add(Paragraph.bullet(who + ": measured for only " + Cells.num(r.load().durationS()) + " s; short runs are noisy."));
            }
            SteadyState ss = r.checks().steadyState();
            if (ss != null && !ss.reached() && paired) {
                out.add(Paragraph.bullet(who + ": not steady after " + Cells.num(ss.warmupS()) + " s of warmup; "
                        + (ss.steady() ? "its rounds showed no trend against the other targets, so it takes part in the verdicts."
                        : "its rounds drifted too: no verdict.")));
            } else if (ss != null && !ss.reached()) {
                List<String> reasons = ss.rule() == null ? List.of() : ss.rule().reasons();
                out.add(Paragraph.bullet(who + ": not steady after " + Cells.num(ss.warmupS()) + " s of warmup"
                        + (reasons.isEmpty() ? "" : " (" + String.join("; ", reasons) + ")") + "; its figures may include JIT warmup. Use a longer --warmup."));
            }
            if (ss != null && ss.drift() != null && ss.drift().drifting() && !(paired && !ss.reached())) {
                out.add(Paragraph.bullet(who + ": " + ss.drift().note()));
            }
        }
        return out;
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** "The same jar's JVMs, set 2 against set 1 (throughput per round): json: mvc 0.902 (95% CI 0.871-0.934), ...". */
    private static String jvmSpread(RunRecord root) {
        List<String> parts = new ArrayList<>();
        List<String> scenarios = root.blocks().stream().map(b -> b.scenario()).distinct().toList();
        List<String> targets = root.blocks().stream().map(b -> b.target()).distinct().sorted().toList();
        for (String scenario : scenarios) {
            List<String> ratios = new ArrayList<>();
            for (String t : targets) {
                for (int set = 2; set <= root.jvmsPerTarget(); set++) {
                    Paired p = Comparisons.jvmRatio(root.blocks(), scenario, t, set);
                    if (p.rounds() > 0) {
                        ratios.add(t + (root.jvmsPerTarget() > 2 ? " set " + set : "") + " " + p.describe());
                    }
                }
            }
            if (!ratios.isEmpty()) {
                parts.add((scenarios.size() > 1 ? scenario + ": " : "") + String.join(", ", ratios));
            }
        }
        return "The same jar's JVMs in this run, " + (root.jvmsPerTarget() > 2 ? "each set" : "set 2") + " against set 1 (throughput per round): "
                + String.join("; ", parts) + ".";
    }

    /** " It died 17 s after its first request, at 9,943 users; its last second: 1,450 MB resident, 31 threads, 10,215 open files." */
    private static String untilDeath(Result r) {
        if (r.telemetry().series() == null || r.telemetry().series().isEmpty()) {
            return "";
        }
        Result.PerSecond last = r.telemetry().series().get(r.telemetry().series().size() - 1);
        List<String> held = new ArrayList<>();
        if (last.rssMb() != null) {
            held.add(Cells.num(last.rssMb()) + " MB resident");
        }
        if (last.threads() != null) {
            held.add(Cells.num(last.threads()) + " threads");
        }
        if (last.fds() != null) {
            held.add(Cells.num(last.fds()) + " open files");
        }
        return " It died " + (last.t() + 1) + " s after its first request, at " + Cells.num(last.users()) + " users"
                + (held.isEmpty() ? "" : "; its last second: " + String.join(", ", held)) + " (its resource charts end there).";
    }
}
