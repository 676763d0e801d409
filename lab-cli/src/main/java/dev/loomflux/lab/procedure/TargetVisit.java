package dev.loomflux.lab.procedure;

import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.cpuprofile.ProfileSource;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.sut.TargetSpec;
import java.net.URI;
import java.nio.file.Path;

/**
 * One started target JVM, as the designs and the procedures see it: which set (paired design) or repeat (sequential
 * design) it serves, whether it still runs, and what the run's {@link Measurer} measures on it. Closing it stops it.
 */
public interface TargetVisit extends AutoCloseable {
    TargetSpec spec();

    /** Which JVM of its target it is, from 1: its set in the paired design, its repeat in the sequential one. */
    int jvm();

    URI base();

    long pid();

    boolean alive();

    /** How it exited: "code 137: killed by SIGKILL (...)". */
    String exitDescription();

    /** Why it is gone, for a failed result: what ended it when its log or cgroup tells, how, {@code when}, and its last lines. */
    String exited(String when);

    /** What every result records about the target process it measured, and its set or repeat. */
    Result stamp(Result r);

    /** The paired design's warmup: the compile stage, then the task's load until the JIT is quiet ({@link Measurer#warm}). */
    Warmup.Outcome warm(Scenario scenario, Measurer.Task task);

    /** Dumps its JFR recording to {@code file} ({@link dev.loomflux.lab.measure.Recordings#dumpJfr}). @return null when dumped, else why not */
    String dumpJfr(Path file);

    /** The recording its CPU profile is read from ({@link dev.loomflux.lab.measure.Recordings#dumpProfile}), after {@link #dumpJfr} to {@code <base>.jfr}. */
    ProfileSource dumpProfile(String base, String noJfr);

    /** One load on it, as one result ({@link Measurer#measure}). */
    Result measure(Scenario scenario, Measurer.Task task);

    /** Stops the JVM. */
    @Override
    void close();
}
