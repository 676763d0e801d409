package dev.loomflux.lab.procedure;

import dev.loomflux.lab.capacity.CapacityPlan;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ResultsFile;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a run does to each target for each scenario: measure the experiment's profile
 * ({@link MeasureProfile}), each cell of its sweep ({@link SweepCells}) or search the highest rate
 * that meets an SLO ({@link SearchCapacity}). The command chooses ({@link Maker}); the run itself
 * (database, stub, pinning, Ctrl-C) is the Runner's, the order of the targets the design's.
 */
public interface Procedure {
    /**
     * Measures one scenario on a started target and adds what it measured to the results.
     *
     * @return false when the target exited before the scenario was done: the run then starts a fresh
     *         JVM and calls again with the same scenario, and the procedure goes on where it stopped
     */
    boolean run(TargetVisit visit, Scenario scenario);

    /**
     * What the paired design measured instead, once its rounds are over: the results of every target and set, and the
     * comparisons drawn from their blocks. Only a sweep maps them.
     */
    default void fromRounds(List<Result> measured, List<PairComparison> comparisons) {
    }

    /**
     * The paired design's cells of one scenario, one after another: each is asked for once the one before it was measured, so
     * that a procedure can choose it from what the rounds showed (a capacity ladder's next rung). The sweep's cells, or the
     * scenario alone, by default.
     */
    default Iterator<ScenarioCell> cells(Experiment experiment, Scenario base) {
        return ScenarioCell.of(experiment, base).iterator();
    }

    /** After the last target, before results.json is marked completed: the sections over all results. */
    void summarize();

    /** The console's closing lines after the run's summary table. */
    void conclude(Consumer<String> log);

    /** Whether the report's headlines answer the experiment's question (a capacity search's steps do not). */
    boolean answers();

    /** What a command hands the Runner: the procedure, built once the run and its results exist. */
    interface Maker {
        /** @param progress the run's progress line, or null when its length is not known ahead */
        Procedure create(Experiment experiment, RunContext run, ResultsFile results, Progress progress);

        /** Whether the run's length is known ahead, for its progress line: a capacity search's is not. */
        default boolean timed() {
            return true;
        }
    }

    /** The experiment's own question: its sweep's grid when it has one, else its profile on every target x scenario. */
    static Maker of(Experiment experiment) {
        return experiment.sweep() != null ? SweepCells::new : (e, run, results, progress) -> new MeasureProfile(e, run.stop(), results, progress);
    }

    /** Each target x scenario's highest rate that meets the plan's SLO: a ladder in paired rounds, or a search per target. */
    static Maker capacity(CapacityPlan plan) {
        return new Maker() {
            @Override
            public Procedure create(Experiment experiment, RunContext run, ResultsFile results, Progress progress) {
                return experiment.design().paired() ? new LadderCapacity(experiment, plan, run, results) : new SearchCapacity(experiment, plan, run, results);
            }

            @Override
            public boolean timed() {
                return false;
            }
        };
    }
}
