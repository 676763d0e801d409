package dev.loomflux.lab.run;

import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.cpuprofile.ProfileSource;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.telemetry.Phase;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A target JVM that {@link JvmStarter} started, measured by the run's {@link Measurer}.
 *
 * @param jvm      which JVM of its target: its set in the paired design, its repeat in the sequential one
 * @param before   what it went through before any load (startup, and idle in the sequential design)
 * @param stamping what every result records about it: its set or repeat, its startup time, its CPUs and its own /config
 * @param closed   what to do once it is stopped
 */
record StartedTarget(RunningTarget target, int jvm, List<Phase> before, UnaryOperator<Result> stamping, Measurer measurer, Runnable closed)
        implements TargetVisit {
    StartedTarget {
        before = List.copyOf(before);
    }

    @Override
    public TargetSpec spec() {
        return target.spec();
    }

    @Override
    public URI base() {
        return target.base();
    }

    @Override
    public long pid() {
        return target.process().pid();
    }

    @Override
    public boolean alive() {
        return target.process().isAlive();
    }

    @Override
    public String exitDescription() {
        return target.process().exitDescription();
    }

    /** Led by what ended it when its log or cgroup tells (out of heap, the memory limit, a crash), then its last words. */
    @Override
    public String exited(String when) {
        return target.exitCause().map(c -> c + ": ").orElse("") + "target exited " + when + " (" + target.process().exitDescription()
                + "); last lines:\n" + target.process().logTail(10);
    }

    @Override
    public Result stamp(Result r) {
        return stamping.apply(r);
    }

    @Override
    public Warmup.Outcome warm(Scenario scenario, Measurer.Task task) {
        return measurer.warm(target, scenario, task);
    }

    @Override
    public String dumpJfr(Path file) {
        return measurer.recordings().dumpJfr(target, file);
    }

    @Override
    public ProfileSource dumpProfile(String base, String noJfr) {
        return measurer.recordings().dumpProfile(target, base, noJfr);
    }

    @Override
    public Result measure(Scenario scenario, Measurer.Task task) {
        return measurer.measure(target, scenario, task, before);
    }

    @Override
    public void close() {
        target.close();
        closed.run();
    }
}
