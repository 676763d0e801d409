package dev.loomflux.lab.run;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.TargetSpec;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The sequential design: one target JVM alive at a time, each repeat of each target in a fresh JVM in the order of
 * {@link Turns}, and on it the session's procedure for each scenario in turn. A JVM that dies with scenarios left is
 * replaced by a fresh one for them.
 */
final class SequentialRun implements DesignRun {
    private final Experiment experiment;
    private final Consumer<Duration> pause;

    /**
     * @param experiment the experiment as the run starts it (a sweep's targets are its variants)
     * @param pause      how the run waits out a cooldown
     */
    SequentialRun(Experiment experiment, Consumer<Duration> pause) {
        this.experiment = experiment;
        this.pause = pause;
    }

    @Override
    public int residentJvms() {
        return 1;
    }

    @Override
    public void requireMemory(LaunchSettings settings) {
        // One JVM at a time: no sum of resident JVMs to hold.
    }

    @Override
    public void run(Session s) {
        String because = experiment.sequentialBecause();
        if (because != null) {
            s.run().log().line("measured one target after another: interleaved rounds need " + because);
        }
        new Turns(experiment, s.run().stop(), pause, s.run().log()::line).run(
                (target, repeat, left) -> visit(s, target, repeat, left),
                () -> s.results().results().size(),
                (target, scenario, repeat, why) -> addFailed(s, target, scenario, repeat, why));
    }

    /**
     * Starts the target and runs the procedure on the scenarios left, removing each one done.
     *
     * @return how the JVM exited when it died with scenarios left; null when none is left, on a stop, or when it did not start
     */
    private String visit(Session s, TargetSpec spec, int repeat, List<Scenario> left) {
        TargetVisit visit;
        try {
            visit = s.starter().alone(spec, repeat);
        } catch (LabException e) {
            if (!s.run().stop().requested()) {
                s.run().log().line(spec.name() + ": did not start: " + e.getMessage());
                left.forEach(scenario -> addFailed(s, spec, scenario, repeat, e.getMessage()));
                left.clear();
            }
            return null;
        }
        try (visit) {
            while (!left.isEmpty() && !s.run().stop().requested()) {
                if (!visit.alive() || !s.procedure().run(visit, left.get(0))) {
                    return visit.exitDescription();
                }
                left.remove(0);
            }
            return null;
        }
    }

    /** A target x scenario that has no measurement, with why; it counts as done for the run's progress. */
    private static void addFailed(Session s, TargetSpec target, Scenario scenario, int repeat, String why) {
        s.results().add(Result.failed(target.name(), scenario.name(), why).withRepeat(repeat, null));
        if (s.progress() != null) {
            s.progress().unitDone();
        }
    }

    @Override
    public void compare(Session session) {
        // Targets measured minutes apart are compared by their repeats' medians: the procedure's summary.
    }

    @Override
    public void conclude(Session session) {
        // The procedure's lines say it all.
    }
}
