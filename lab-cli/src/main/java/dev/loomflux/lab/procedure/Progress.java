package dev.loomflux.lab.procedure;

import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.measure.Warmup;
import java.time.Duration;

/**
 * How far a run is and how long it can still take. Warmups end when the target is steady, so the
 * honest estimate is an upper bound: every warmup using its whole budget.
 */
public final class Progress {
    /** A target's start (JVM, Spring, readiness), above the "ready in" times run.log records, which grow while the machine is busy. */
    private static final Duration START = Duration.ofSeconds(30);
    /** After each load: the JFR dump, telemetry, the hlog and results files. */
    private static final Duration PER_SCENARIO = Duration.ofSeconds(5);
    /** Once per run: PostgreSQL and the stub starting, then the report at the end. */
    private static final Duration SETUP = Duration.ofSeconds(20);
    private static final Duration END = Duration.ofSeconds(10);
    /** A block's drain (the last responses) and the telemetry read at its edges: above what run.log's times show between blocks. */
    private static final Duration BLOCK_OVERHEAD = Duration.ofMillis(50);

    private final int total;
    private final Duration perUnit;
    private final long startedNanos = System.nanoTime();
    private int done;
    private long unitStartedNanos = System.nanoTime();

    /** Null when the profile ends by a request count (loops, burst): how long it takes is not known before it runs. */
    public static Progress of(Experiment experiment) {
        if (experiment.profile().plannedDuration().isZero()) {
            return null;
        }
        int scenarios = experiment.scenarios().size();
        // The paired design starts every target at once and cools down only between sets of them.
        Duration perTarget = START.plus(experiment.idle()).plus(experiment.inRounds() ? Duration.ZERO : experiment.cooldown());
        // In rounds a JVM's warmup is its compile stage, in the first cell only; the lead-in rounds count with the rounds.
        Duration warmup = experiment.inRounds() ? Warmup.compileBudget(experiment.warmup()) : experiment.warmup();
        if (experiment.sweep() != null) {
            // A sweep's unit is a cell: the first of each target x scenario warms from cold, the others only until their load is steady.
            int cells = experiment.sweep().cells().size();
            Duration cellWarmup = experiment.inRounds() ? Duration.ZERO : experiment.sweep().cellWarmup();
            Duration cellMeasured = experiment.inRounds() ? rounds(experiment) : experiment.profile().plannedDuration();
            Duration perUnit = cellWarmup.plus(cellMeasured).plus(PER_SCENARIO)
                    .plus(perTarget.plus(warmup.minus(cellWarmup).multipliedBy(scenarios)).dividedBy(scenarios * cells));
            return new Progress(experiment.targets().size() * experiment.jvmsPerTarget() * scenarios * cells, perUnit);
        }
        // A unit is a target's warmup and its share of the rounds; each block also waits for its stragglers.
        Duration measured = experiment.inRounds() ? rounds(experiment) : experiment.profile().plannedDuration();
        Duration perUnit = warmup.plus(measured).plus(PER_SCENARIO)
                .plus(perTarget.dividedBy(scenarios));
        return new Progress(experiment.targets().size() * experiment.jvmsPerTarget() * scenarios, perUnit);
    }

    /** A target's share of the rounds: its blocks with their lead-ins (or each a whole shape), each also waiting for its stragglers. */
    private static Duration rounds(Experiment e) {
        Design d = e.design();
        Duration block = Experiment.measuredInRounds(e.profile()) ? d.block().plus(d.leadIn()) : e.profile().plannedDuration();
        return block.plus(BLOCK_OVERHEAD).multipliedBy(d.rounds() + d.leadInRounds());
    }

    private Progress(int total, Duration perUnit) {
        this.total = total;
        this.perUnit = perUnit;
    }

    private Duration bound() {
        return SETUP.plus(perUnit.multipliedBy(total)).plus(END);
    }

    /** "at most 12 min", said once at the start. */
    public String estimate() {
        return "at most " + minutes(bound()) + " (" + total + " target x scenario run(s), each at most "
                + minutes(perUnit) + "; warmups usually end sooner, when steady)";
    }

    public synchronized void unitStarted() {
        unitStartedNanos = System.nanoTime();
    }

    public synchronized void unitDone() {
        done++;
    }

    /** "[2/6] 3:10 elapsed, at most 6:40 left". */
    public synchronized String status() {
        long inUnit = Math.min(perUnit.toSeconds(), (System.nanoTime() - unitStartedNanos) / 1_000_000_000L);
        long elapsed = (System.nanoTime() - startedNanos) / 1_000_000_000L;
        long left = Math.max(0, (total - done) * perUnit.toSeconds() - inUnit + END.toSeconds());
        return "[" + Math.min(done + 1, total) + "/" + total + "] " + clock(elapsed)
                + " elapsed, at most " + clock(left) + " left";
    }

    private static String minutes(Duration d) {
        return d.toSeconds() < 120 ? d.toSeconds() + " s" : Math.round(d.toSeconds() / 60.0) + " min";
    }

    private static String clock(long seconds) {
        return seconds / 60 + ":" + String.format("%02d", seconds % 60);
    }
}
