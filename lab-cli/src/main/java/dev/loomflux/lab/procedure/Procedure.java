package dev.loomflux.lab.procedure;

import dev.loomflux.lab.experiment.Scenario;
import java.util.function.Consumer;

/**
 * What a run does to each target for each scenario: measure the experiment's profile
 * ({@link MeasureProfile}) or search the highest rate that meets an SLO ({@link SearchCapacity}).
 * The run itself (database, stub, pinning, Ctrl-C, the targets in turn) is the Runner's.
 */
public interface Procedure {
    /**
     * Measures one scenario on a started target and adds what it measured to the results.
     *
     * @return false when the target exited before the scenario was done: the run then starts a fresh
     *         JVM and calls again with the same scenario, and the procedure goes on where it stopped
     */
    boolean run(TargetVisit visit, Scenario scenario);

    /** After the last target, before results.json is marked completed: the sections over all results. */
    void summarize();

    /** The console's closing lines after the run's summary table. */
    void conclude(Consumer<String> log);

    /** Whether the report's headlines answer the experiment's question (a capacity search's steps do not). */
    boolean answers();
}
