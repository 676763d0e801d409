package dev.loomflux.lab.procedure;

import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.experiment.Sweep;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.verdict.SweepVerdicts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * ./lab sweep: every cell of the grid on each target JVM, in order, the JVM kept while only the load
 * and the request change; the first cell warms it up from cold (compile stage, then until steady),
 * every later one until its own load is steady. A JVM that dies in a cell leaves the rest to a fresh
 * one, whose first cell warms from cold again. Then the map: per cell the winner where it is clear,
 * and where the winner changes.
 */
public final class SweepCells implements Procedure {
    private final Experiment experiment;
    private final Sweep sweep;
    private final Map<String, Sweep.Variant> variants = new LinkedHashMap<>();
    private final Stop stop;
    private final ResultsFile results;
    private final Log log;
    private final Progress progress;
    private final List<SweepVerdicts.Entry> entries = new ArrayList<>();
    /** The paired comparisons of a sweep measured in rounds; null when measured cell by cell. */
    private List<SweepVerdicts.PairOutcome> pairs;
    /** Per target JVM name, repeat and scenario: the cell its next JVM starts at. */
    private final Map<String, Integer> nextCell = new HashMap<>();
    private SweepMap map;

    /**
     * @param experiment the experiment as declared (its targets, not their variants)
     * @param progress   null when not estimated
     */
    public SweepCells(Experiment experiment, RunContext run, ResultsFile results, Progress progress) {
        this.experiment = experiment;
        this.sweep = experiment.sweep();
        sweep.variants(experiment.targets()).forEach(v -> variants.put(v.spec().name(), v));
        this.stop = run.stop();
        this.results = results;
        this.log = run.log();
        this.progress = progress;
    }

    /** The target JVMs the run starts: a declared target once, or once per value of a target axis. */
    public static List<TargetSpec> targets(Experiment experiment) {
        return experiment.sweep().variants(experiment.targets()).stream().map(Sweep.Variant::spec).toList();
    }

    @Override
    public boolean run(TargetVisit visit, Scenario base) {
        String name = visit.spec().name();
        Sweep.Variant variant = variants.get(name);
        List<ScenarioCell> cells = ScenarioCell.of(experiment, base);
        // A fresh JVM after one that died goes on with the cell after the one it died in.
        String key = name + " " + visit.jvm() + " " + base.name();
        boolean first = true;
        for (int i = nextCell.getOrDefault(key, 0); i < cells.size(); i++) {
            if (stop.requested()) {
                return true;
            }
            if (!visit.alive()) {
                nextCell.put(key, i);
                return false;
            }
            ScenarioCell cell = cells.get(i);
            Scenario scenario = cell.scenario();
            Map<String, Integer> at = at(variant, cell.cell());
            if (progress != null) {
                progress.unitStarted();
            }
            log.line(name + " " + scenario.name() + ": cell " + at);
            Measurer.Task task = cell.task(first);
            Result r = visit.measure(scenario, task.tagged(task.files().repeat(visit.jvm(), experiment.repeats())));
            first = false;
            if (stop.requested()) {
                return true; // cut short by Ctrl-C: not a result
            }
            r = visit.stamp(r).withCell(at);
            results.add(r);
            entries.add(new SweepVerdicts.Entry(variant.base(), sweep.mapName(base), at, r));
            if (progress != null) {
                progress.unitDone();
            }
        }
        nextCell.put(key, cells.size());
        return true;
    }

    /**
     * The sweep was measured in paired rounds (PairedRun): its cells' results and comparisons become the
     * map's entries and leads. A target axis makes a JVM per value; only variants at the same values of
     * the target axes are compared in the map, as in a cell of a sequential sweep.
     */
    @Override
    public void fromRounds(List<Result> measured, List<PairComparison> comparisons) {
        pairs = new ArrayList<>();
        for (Result r : measured) {
            Sweep.Variant v = variants.get(r.target());
            String map = r.key().cell() == null || v == null ? null : mapName(r.scenario(), r.key().cell());
            if (map != null) {
                entries.add(new SweepVerdicts.Entry(v.base(), map, at(v, r.key().cell()), r));
            }
        }
        for (PairComparison c : comparisons) {
            Sweep.Variant a = variants.get(c.a());
            Sweep.Variant b = variants.get(c.b());
            String map = c.cell() == null || a == null || b == null ? null : mapName(c.scenario(), c.cell());
            if (map != null && a.at().equals(b.at()) && !a.base().equals(b.base()) && c.metricKind() != null && c.wholeScenario()) {
                pairs.add(new SweepVerdicts.PairOutcome(map, at(a, c.cell()), c.metricKind(), a.base(), b.base(), c.outcome()));
            }
        }
    }

    /** Where in the grid: the variant's target axes and the cell's load and request axes. */
    private static Map<String, Integer> at(Sweep.Variant v, Map<String, Integer> cell) {
        Map<String, Integer> at = new LinkedHashMap<>(v.at());
        at.putAll(cell);
        return at;
    }

    /** The map's name of the scenario a cell was measured with. */
    private String mapName(String scenario, Map<String, Integer> cell) {
        return experiment.scenarios().stream().filter(base -> sweep.scenario(base, cell).name().equals(scenario)).findFirst()
                .map(sweep::mapName).orElse(null);
    }

    @Override
    public void summarize() {
        List<String> targets = experiment.targets().stream().map(TargetSpec::name).toList();
        List<String> scenarios = experiment.scenarios().stream().map(sweep::mapName).toList();
        map = pairs == null ? SweepVerdicts.of(sweep.axes(), targets, scenarios, entries) : SweepVerdicts.ofRounds(sweep.axes(), targets, scenarios, entries, pairs);
        results.sweep(map);
    }

    @Override
    public void conclude(Consumer<String> out) {
        int[] clear = map.clearOfAll();
        out.accept("sweep: " + map.cells().size() + " cells x " + Metric.SWEPT.size() + " metrics; a clear winner in " + clear[0] + " of " + clear[1]
                + (pairs == null && experiment.repeats() < Stats.MIN_REPEATS ? " (verdicts need --repeat 3, or --design paired)" : ""));
        if (map.crossovers().isEmpty()) {
            out.accept("crossovers: none where both sides are clear");
        }
        map.crossovers().forEach(c -> out.accept("crossover " + c));
    }

    @Override
    public boolean answers() {
        return false;
    }
}
