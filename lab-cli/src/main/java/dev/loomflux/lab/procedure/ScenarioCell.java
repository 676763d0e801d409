package dev.loomflux.lab.procedure;

import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.experiment.Sweep;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.ResultFiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One scenario of the experiment at one cell of its sweep, as both designs measure it: a plain scenario is the one cell of no
 * sweep. Its scenario carries the cell's request parameters; its load, the cell's profile.
 *
 * @param base     the scenario as the experiment declares it
 * @param scenario the scenario at the cell
 * @param cell     the cell's values by axis; null without a sweep
 * @param rate     a capacity ladder's rung: its open-model load, measured after the first rung's warmup without one of its own (the
 *                 lead-in rounds settle it); null for a sweep's or the experiment's load
 */
public record ScenarioCell(Experiment experiment, Scenario base, Scenario scenario, Map<String, Integer> cell, LoadProfile.Rate rate) {
    /** A capacity ladder's rung at an open-model rate, {@code {"rate": rps}}. */
    public static ScenarioCell rung(Experiment experiment, Scenario base, LoadProfile.Rate rate) {
        return new ScenarioCell(experiment, base, base, Map.of(RATE, rate.rps()), rate);
    }

    /** The cell's axis of a capacity ladder, as a sweep over rates names it. */
    public static final String RATE = "rate";

    /** The base scenario's cells in the sweep's order; the scenario alone without a sweep. */
    public static List<ScenarioCell> of(Experiment experiment, Scenario base) {
        Sweep sweep = experiment.sweep();
        if (sweep == null) {
            return List.of(new ScenarioCell(experiment, base, base, null, null));
        }
        List<ScenarioCell> out = new ArrayList<>();
        sweep.cells().forEach(cell -> out.add(new ScenarioCell(experiment, base, sweep.scenario(base, cell), cell, null)));
        return out;
    }

    /**
     * The load measured at this cell on a JVM. A cold one warms from its compile stage with the experiment's warmup; one that
     * measured an earlier cell of the sweep is warm, and only settles at this cell's load, as long as the sweep's cell warmup.
     */
    public Measurer.Task task(boolean cold) {
        if (rate != null) {
            return new Measurer.Task(rate, cold ? experiment.warmup() : Duration.ZERO, cold, ResultFiles.Tag.of(cell, scenario));
        }
        Sweep sweep = experiment.sweep();
        if (sweep == null) {
            return new Measurer.Task(experiment.profile(), experiment.warmup(), true, ResultFiles.Tag.NONE);
        }
        return new Measurer.Task(sweep.profile(experiment.profile(), cell), cold ? experiment.warmup() : sweep.cellWarmup(), cold,
                ResultFiles.Tag.of(cell, scenario));
    }

    /** The seed of the rounds' order at this cell in a run: the same run, the same order. */
    public long seed(String runId) {
        return runId.hashCode() * 31L + scenario.name().hashCode() + (cell == null ? Map.of() : cell).hashCode();
    }
}
