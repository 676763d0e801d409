package dev.loomflux.lab.run;

import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.sut.TargetSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The sequential design's order of work, apart from what each turn does: every repeat's targets in the
 * experiment's order (mirrored on even repeats), a cooldown between two targets, a fresh JVM for the
 * scenarios a dead one left, and no new turn once the run is stopping.
 */
final class Turns {
    /** One JVM of a target: starts it and runs the scenarios left, removing each one done. */
    interface Jvm {
        /** @return how the JVM exited when it died with scenarios left; null when none is left, on a stop, or when it did not start */
        String run(TargetSpec target, int repeat, List<Scenario> left);
    }

    /** A scenario that gets no measurement in this repeat, and why. */
    interface Unmeasured {
        void add(TargetSpec target, Scenario scenario, int repeat, String why);
    }

    private final Experiment experiment;
    private final Stop stop;
    private final Consumer<Duration> pause;
    private final Consumer<String> log;

    Turns(Experiment experiment, Stop stop, Consumer<Duration> pause, Consumer<String> log) {
        this.experiment = experiment;
        this.stop = stop;
        this.pause = pause;
        this.log = log;
    }

    /** @param measured how many results the run holds so far: a JVM that added none is not started again */
    void run(Jvm visit, IntSupplier measured, Unmeasured unmeasured) {
        boolean first = true;
        for (int repeat = 1; repeat <= experiment.repeats(); repeat++) {
            for (TargetSpec target : experiment.order(repeat)) {
                if (stop.requested()) {
                    return;
                }
                if (!first && !experiment.cooldown().isZero()) {
                    log.accept("cooldown " + experiment.cooldown().toSeconds() + " s");
                    pause.accept(experiment.cooldown());
                }
                first = false;
                if (experiment.repeats() > 1) {
                    log.accept("repeat " + repeat + " of " + experiment.repeats() + ": " + target.name());
                }
                turn(target, repeat, visit, measured, unmeasured);
            }
        }
    }

    /**
     * One repeat of a target: a fresh JVM that runs the scenarios in turn. When that JVM dies with work
     * left (out of heap in a sweep's heaviest cell), another one takes the rest, warmed from cold;
     * a JVM that dies before anything was measured is not started again.
     */
    private void turn(TargetSpec target, int repeat, Jvm visit, IntSupplier measured, Unmeasured unmeasured) {
        List<Scenario> left = new ArrayList<>(experiment.scenarios());
        while (!left.isEmpty() && !stop.requested()) {
            int before = measured.getAsInt();
            String exited = visit.run(target, repeat, left);
            if (exited == null || left.isEmpty() || stop.requested()) {
                return;
            }
            if (measured.getAsInt() == before) {
                left.forEach(s -> unmeasured.add(target, s, repeat, "not measured: the target had exited (" + exited + ")"));
                return;
            }
            log.accept(target.name() + ": starting a fresh JVM for what is left (" + String.join(", ", left.stream().map(Scenario::name).toList()) + ")");
        }
    }
}
