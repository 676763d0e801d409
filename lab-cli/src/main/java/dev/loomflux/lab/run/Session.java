package dev.loomflux.lab.run;

import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.procedure.Progress;
import dev.loomflux.lab.result.ResultsFile;

/**
 * What a design runs with, once the run's directory, support processes and results.json exist.
 *
 * @param procedure what the sequential design does on each target x scenario; after the paired design's rounds, what
 *                  maps their results (a sweep)
 * @param progress  the run's progress line, or null when its length is not known ahead
 */
record Session(RunContext run, TargetStarter starter, Procedure procedure, ResultsFile results, Progress progress) {
    /** The run's id: the name of its results directory. */
    String runId() {
        return run.dir().getFileName().toString();
    }
}
