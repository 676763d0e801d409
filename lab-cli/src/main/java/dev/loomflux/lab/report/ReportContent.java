package dev.loomflux.lab.report;

import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.List;

/**
 * What a report says, in order, independent of its format: the sections seed 000 wrote by hand
 * (summary, configuration, response times, throughput, reliability, resources per phase, JVM),
 * plus config parity, caveats, time to steady state, repeats and capacity when the run has them.
 */
final class ReportContent {
    private ReportContent() {
    }

    static List<Section> of(RunRecord root) {
        if (root.summaries().sweep() != null) {
            return sweep(root);
        }
        List<Section> out = new ArrayList<>();
        out.add(Answer.of(root));
        List<String> scenarios = scenarios(root);
        List<Paragraph> summary = new ArrayList<>();
        for (String s : scenarios) {
            summary.addAll(Findings.summary(root, s, ok(root, s)));
        }
        out.add(new Section("Executive summary", summary, List.of(), List.of()));
        out.add(caveats(root));
        out.add(new Section("Test configuration", List.of(), List.of(Configuration.of(root)), List.of()));
        String column = repeatColumn(root);
        for (int i = 0; i < scenarios.size(); i++) {
            String s = scenarios.get(i);
            String id = "s" + i;
            // In rounds the JIT per round sits beside the throughput per round.
            List<String> charts = new ArrayList<>(List.of(id + "-throughput", id + "-jit", id + "-latency", id + "-percentiles", id + "-cpu", id + "-rss",
                    id + "-threads", id + "-fds"));
            if (!warmedUp(root, s).isEmpty()) {
                charts.addAll(List.of(id + "-warmup", id + "-warmup-jit"));
            }
            charts.addAll(FlameGraphs.ids(id, ok(root, s).stream().map(Result::target).distinct().toList(), Findings.pairs(root, s).size()));
            List<Table> tables = new ArrayList<>(ScenarioTables.of(all(root, s), column));
            if (inRounds(root)) {
                tables.add(RoundsJit.table(root, s));
            }
            out.add(new Section("Scenario " + s, List.of(), tables, charts));
        }
        Table steady = steadyState(root, column);
        if (inRounds(root)) {
            out.add(TimeToSteady.of(root));
        } else if (!steady.rows().isEmpty()) {
            boolean staged = root.results().stream().anyMatch(r -> r.checks().steadyState() != null && r.checks().steadyState().compileStage() > 0);
            out.add(new Section("Steady state", List.of(Paragraph.plain((staged ? "Each warmup started with a compile stage, 2 users until the target's "
                    + "JIT had been quiet for 5 s (on one CPU, many busy request threads starve the compiler threads); then e" : "E")
                    + "ach target x scenario ran under the profile's load until throughput, median latency, the JIT and the machine's "
                    + "speed had stopped changing over a window, or until the warmup budget ran out, and was measured after that. "
                    + (staged ? "Seconds to steady count from the first request, the compile stage included. " : "")
                    + "Drift compares the last third of the measured window with its first third.")), List.of(steady), List.of()));
        }
        out.add(new Section("Config parity", List.of(Paragraph.plain("Read back from each running target's GET /config.")), List.of(Configuration.parity(root)),
                List.of()));
        // The paired design's verdicts are its comparisons, over rounds: medians of its few sets would only say "too few".
        if (root.jvmsPerTarget() > 1 && !inRounds(root)) {
            out.add(repeats(root));
        }
        if (root.summaries().capacity() != null) {
            out.add(capacity(root));
        }
        if (root.summaries().capacityLadder() != null && !root.summaries().capacityLadder().isEmpty()) {
            out.add(LadderSection.section(root));
        }
        if (root.paired().survival() != null && !root.paired().survival().isEmpty()) {
            out.add(SurvivalSection.section(root));
        }
        return out;
    }

    /** Whether the run was measured in the paired design's rounds, where a result's number is its set of JVMs, not a repeat. */
    static boolean inRounds(RunRecord root) {
        return Answer.paired(root) || root.experiment().design() != null && "paired".equals(root.experiment().design().kind());
    }

    /** The column that tells a target's results apart: none for one each, "set" in rounds, else "repeat". */
    private static String repeatColumn(RunRecord root) {
        return root.jvmsPerTarget() <= 1 ? null : inRounds(root) ? "set" : "repeat";
    }

    private static Section caveats(RunRecord root) {
        List<Paragraph> caveats = Caveats.of(root);
        return new Section("Caveats", caveats.isEmpty() ? List.of(Paragraph.plain("None detected.")) : caveats, List.of(), List.of());
    }

    /**
     * A sweep: the map first (per scenario and metric who wins where, the crossovers in words), then
     * every cell's medians, the configuration, steady state and parity; no section per cell.
     */
    private static List<Section> sweep(RunRecord root) {
        SweepMap map = root.summaries().sweep();
        List<Section> out = new ArrayList<>();
        out.add(new Section("Executive summary", Findings.sweepSummary(root), List.of(), List.of()));
        out.add(caveats(root));
        out.add(new Section("Test configuration", List.of(), List.of(Configuration.of(root)), List.of()));
        List<String> scenarios = map.cells().stream().map(SweepMap.Cell::scenario).distinct().toList();
        for (int i = 0; i < scenarios.size(); i++) {
            String s = scenarios.get(i);
            List<SweepMap.Cell> cells = map.cells().stream().filter(c -> c.scenario().equals(s)).toList();
            List<Table> tables = new ArrayList<>();
            for (Metric m : Metric.SWEPT) {
                tables.add(winners(map, cells, m));
            }
            tables.add(figures(map, cells));
            out.add(new Section("Where each model wins: " + s, List.of(Paragraph.plain("Each cell names the target with the best median and how far it is "
                    + "ahead of the next one when that is clear: ahead of every other target by at least " + Stats.MIN_EFFECT_PCT + "% with 95% confidence, "
                    + "every result of the cell steady "
                    + "(" + map.method() + ").")), tables, SweepCharts.ids(map, i)));
        }
        Table steady = steadyState(root, repeatColumn(root));
        if (inRounds(root)) {
            out.add(TimeToSteady.of(root));
        } else if (!steady.rows().isEmpty()) {
            out.add(new Section("Steady state", List.of(Paragraph.plain("Every cell was measured after its load was steady; the first cell of "
                    + "each target JVM warmed it from cold.")), List.of(steady), List.of()));
        }
        out.add(new Section("Config parity", List.of(Paragraph.plain("Read back from each running target's GET /config.")), List.of(Configuration.parity(root)), List.of()));
        return out;
    }

    /** One metric over the grid: the first axis across, the second down. */
    private static Table winners(SweepMap map, List<SweepMap.Cell> cells, Metric m) {
        SweepMap.AxisValues x = map.axes().get(0);
        SweepMap.AxisValues y = map.axes().size() > 1 ? map.axes().get(1) : null;
        List<String> header = new ArrayList<>(List.of(y == null ? "" : y.label() + " \\ " + x.label()));
        x.values().forEach(v -> header.add(v.toString()));
        List<List<String>> rows = new ArrayList<>();
        for (Integer yv : y == null ? java.util.Collections.<Integer>singletonList(null) : y.values()) {
            List<String> row = new ArrayList<>(List.of(yv == null ? m.words() : yv.toString()));
            for (int xv : x.values()) {
                SweepMap.Cell cell = cells.stream().filter(c -> Integer.valueOf(xv).equals(c.at().get(x.name()))
                        && (y == null || yv.equals(c.at().get(y.name())))).findFirst().orElse(null);
                row.add(cell == null ? "-" : Cells.label(cell, m.summaryName()));
            }
            rows.add(row);
        }
        return new Table(m.label() + (m.unit().isEmpty() ? "" : " (" + m.unit() + ")") + ": who wins where", header, rows);
    }

    /** Every cell's medians per target. */
    private static Table figures(SweepMap map, List<SweepMap.Cell> cells) {
        List<String> header = new ArrayList<>();
        map.axes().forEach(a -> header.add(a.label()));
        header.addAll(List.of("target", "n", "steady"));
        Metric.SWEPT.forEach(m -> header.add(m.label() + (m.unit().isEmpty() ? "" : " " + m.unit())));
        List<List<String>> rows = new ArrayList<>();
        for (SweepMap.Cell c : cells) {
            for (SweepMap.TargetFigures t : c.targets()) {
                List<String> row = new ArrayList<>();
                map.axes().forEach(a -> row.add(String.valueOf(c.at().get(a.name()))));
                row.addAll(List.of(t.target(), String.valueOf(t.n()), t.steady() ? "yes" : "no"));
                for (Metric m : Metric.SWEPT) {
                    SweepMap.Figure f = t.metrics().get(m.summaryName());
                    row.add(f == null ? "-" : Cells.num(f.median()) + (t.n() > 1 ? " (" + Cells.num(f.ciLow()) + "-" + Cells.num(f.ciHigh()) + ")" : ""));
                }
                rows.add(row);
            }
        }
        return new Table("Medians per cell" + (cells.stream().anyMatch(c -> c.targets().stream().anyMatch(t -> t.n() > 1)) ? " (95% CI)" : ""),
                header, rows);
    }

    static List<String> scenarios(RunRecord root) {
        return root.experiment().scenarios().stream().map(ExperimentDescription.ScenarioDescription::name).toList();
    }

    static List<Result> all(RunRecord root, String scenario) {
        return root.results().stream().filter(r -> r.scenario().equals(scenario)).toList();
    }

    static List<Result> ok(RunRecord root, String scenario) {
        return all(root, scenario).stream().filter(Result::ok).toList();
    }

    /** Targets that died under load, with what the sampler saw of them until then. */
    static List<Result> died(RunRecord root, String scenario) {
        return all(root, scenario).stream().filter(r -> !r.ok() && r.telemetry().series() != null && !r.telemetry().series().isEmpty()).toList();
    }

    /** Results with a warmup series to chart; capacity steps are left out as in every chart over time. */
    static List<Result> warmedUp(RunRecord root, String scenario) {
        return ok(root, scenario).stream().filter(r -> r.key().step() == null && r.checks().steadyState() != null && !r.checks().steadyState().series().isEmpty()).toList();
    }

    private static Table steadyState(RunRecord root, String column) {
        boolean steps = root.results().stream().anyMatch(r -> r.key().step() != null);
        boolean cells = root.results().stream().anyMatch(r -> r.key().cell() != null);
        List<List<String>> rows = new ArrayList<>();
        for (Result r : root.results()) {
            SteadyState ss = r.checks().steadyState();
            if (ss == null) {
                continue;
            }
            List<String> row = new ArrayList<>(List.of(r.target(), r.scenario()));
            if (column != null) {
                row.add(String.valueOf(r.jvm()));
            }
            if (steps) {
                row.add(r.key().step() == null ? "-" : r.key().step().toString());
            }
            if (cells) {
                row.add(r.key().cell() == null ? "-" : r.cellLabel());
            }
            SteadyState.DriftCheck drift = ss.drift();
            int compiled = ss.compileStage();
            String stage = compiled > 0 ? " (" + compiled + " of them at " + ss.compileStageUsers() + " users)" : "";
            row.addAll(List.of(ss.reached() ? "yes" : "no", (ss.reached() ? Cells.num(ss.seconds()) : "not within " + Cells.num(ss.budgetS()) + " s") + stage,
                    jit(ss.jit() == null ? null : ss.jit().warmup(), 1000), jit(ss.jit() == null ? null : ss.jit().measured(), 1),
                    drift == null || drift.rpsChangePct() == null ? "-" : Cells.pct(drift.rpsChangePct()) + (drift.drifting() ? ", drifting" : "")));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("target", "scenario"));
        if (column != null) {
            header.add(column);
        }
        if (steps) {
            header.add("step");
        }
        if (cells) {
            header.add("cell");
        }
        header.addAll(List.of("reached", "s to steady", "JIT during warmup s", "JIT while measured ms", "throughput drift (last vs first third)"));
        return new Table("", header, rows);
    }

    /** Compile time in {@code perUnit} ms and the number of compilations; "-" when the JVM published no counters. */
    private static String jit(SteadyState.JitWork j, double perUnit) {
        if (j == null) {
            return "-";
        }
        return Cells.num(j.compileMs() / perUnit) + " (" + j.compiles() + " compiles)";
    }

    private static Section repeats(RunRecord root) {
        List<List<String>> rows = new ArrayList<>();
        List<Paragraph> verdicts = new ArrayList<>();
        RepeatSummary summary = root.summaries().summary();
        if (summary != null) {
            for (RepeatSummary.Median e : summary.estimates()) {
                rows.add(List.of(e.target(), e.where(), e.metric(), String.valueOf(e.n()), Cells.num(e.median()),
                        Cells.num(e.ciLow()) + " - " + Cells.num(e.ciHigh()), Cells.num(e.min()) + " - " + Cells.num(e.max())));
            }
            verdicts.add(Paragraph.plain("Method: " + summary.method()));
            for (RepeatSummary.PairVerdict v : summary.verdicts()) {
                verdicts.add(Paragraph.bullet(v.where() + (v.request() == null ? "" : " (" + v.request() + ")") + " " + v.metric() + ", " + v.a() + " vs "
                        + v.b() + ": " + v.text()));
            }
        }
        return new Section("Repeats: medians, 95% confidence intervals and verdicts", verdicts,
                List.of(Findings.verdictTable(root), new Table("Medians", List.of("target", "scenario", "metric", "n", "median", "95% CI", "min - max"), rows)),
                List.of());
    }

    private static Section capacity(RunRecord root) {
        boolean repeated = root.jvmsPerTarget() > 1;
        List<List<String>> rows = new ArrayList<>();
        for (CapacitySearchResult c : root.summaries().capacity()) {
            List<String> steps = c.steps().stream().map(s -> s.offeredRps() + (s.sloMet() ? " ok" : " miss")).toList();
            List<String> row = new ArrayList<>(List.of(c.target(), c.scenario()));
            if (repeated) {
                row.add(String.valueOf(c.repeat()));
            }
            row.addAll(List.of(c.capacityRps() + (c.reachedMax() ? " (limit of the search)" : ""), c.slo(), String.join(", ", steps)));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("target", "scenario"));
        if (repeated) {
            header.add("search");
        }
        header.addAll(List.of("capacity rps", "SLO", "steps (rps)"));
        List<Table> tables = new ArrayList<>();
        List<List<String>> medians = new ArrayList<>();
        for (CapacityMedian m : root.summaries().capacitySummary() == null ? List.<CapacityMedian>of() : root.summaries().capacitySummary()) {
            medians.add(List.of(m.target(), m.scenario(), String.valueOf(m.n()), Cells.num(m.medianRps()), Cells.num(m.minRps()) + " - " + Cells.num(m.maxRps()),
                    Cells.num(m.spreadPct()) + "%", m.slo()));
        }
        if (!medians.isEmpty()) {
            tables.add(new Table("Median over searches", List.of("target", "scenario", "searches", "median rps", "min - max", "spread", "SLO"), medians));
        }
        tables.add(new Table(repeated ? "Every search" : "", header, rows));
        return new Section("Capacity at the SLO", List.of(Paragraph.plain("The highest offered rate (open model) whose step met the SLO; "
                + "every step had its own warmup" + (repeated ? ", every search its own fresh JVM; spread = (max - min) / median." : "."))),
                tables, List.of("capacity"));
    }
}
