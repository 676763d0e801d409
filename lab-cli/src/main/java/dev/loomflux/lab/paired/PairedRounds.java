package dev.loomflux.lab.paired;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.DriverTraits;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.procedure.Progress;
import dev.loomflux.lab.procedure.ScenarioCell;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.verdict.Timing;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The paired design's rounds of a run: for each scenario (and sweep cell) every JVM of every set through its compile stage in
 * turn, then all measured in the same interleaved rounds ({@link CellRounds}), the first {@link Design#leadInRounds()} of them
 * unmeasured, over connections that stay open from the first block to the last, so that two sets of JVMs meet the same
 * machine. Each target of each set gets one result over its blocks, with its JVM's JFR recording and the CPU profile read from
 * it over those blocks; the blocks themselves go to results.json, where the comparisons are drawn from them.
 */
public final class PairedRounds {
    private final RunContext run;
    private final Experiment experiment;
    private final ResultsFile results;
    private final Progress progress;
    private final UnaryOperator<TargetVisit> restart;

    /**
     * @param progress the run's progress, or null
     * @param restart  a fresh JVM in place of one that died in a shape (or ran one, with fresh JVMs asked for), started beside
     *                 the others once that one is stopped; it throws
     *                 {@link dev.loomflux.lab.LabException} when that JVM did not start
     */
    public PairedRounds(RunContext run, Experiment experiment, ResultsFile results, Progress progress, UnaryOperator<TargetVisit> restart) {
        this.run = run;
        this.experiment = experiment;
        this.results = results;
        this.progress = progress;
        this.restart = restart;
    }

    /**
     * Warms every JVM and measures them in rounds at one scenario's cell; a JVM that exited or failed meanwhile is left out with
     * a failed result.
     *
     * @param cold     whether the JVMs are cold: a sweep's later cells find them warm, and only settle at their own load
     * @param deadline when the cell's rounds should have ended, epoch ms, for the run's time budget; Long.MAX_VALUE for none
     */
    public void run(List<TargetVisit> visits, ScenarioCell cell, boolean cold, long deadline) {
        new CellRounds(this, visits, cell, cold, deadline).run();
    }

    /** How {@code driver} times requests, as the comparisons weigh it: its step, and the registry's drivers that time finer. */
    public static Timing timing(LoadDriver driver) {
        return timing(driver.type());
    }

    /** As above, for a driver as the registry has it: a finished run's, by its name. */
    public static Timing timing(DriverTraits type) {
        double step = type.latencyStepMs();
        return new Timing(step, Drivers.ALL.finerThan(step));
    }

    RunContext context() {
        return run;
    }

    Experiment experiment() {
        return experiment;
    }

    ResultsFile results() {
        return results;
    }

    /** A fresh JVM in place of {@code old}: one a shape killed, or one that ran a block with fresh JVMs asked for. */
    TargetVisit restart(TargetVisit old) {
        return restart.apply(old);
    }

    /** The run's progress, or null. */
    Progress progress() {
        return progress;
    }

    /** The run's id, the name of its directory: the rounds' order is drawn from it. */
    String runId() {
        return run.dir().getFileName().toString();
    }

    /** A target's JVM of one set, as the rounds and the log name it: "mvc", or "mvc#2" for the second set's. */
    String label(TargetVisit v) {
        return experiment.sets() > 1 ? v.spec().name() + "#" + v.jvm() : v.spec().name();
    }

    /** A JVM's failed result at a cell. */
    static Result failed(TargetVisit v, ScenarioCell cell, String why) {
        Result r = Result.failed(v.spec().name(), cell.scenario().name(), why).withSet(v.jvm(), null);
        Map<String, Integer> at = cell.cell();
        return at == null ? r : r.withCell(at);
    }
}
