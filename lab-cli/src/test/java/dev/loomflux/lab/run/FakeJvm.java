package dev.loomflux.lab.run;

import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.cpuprofile.ProfileSource;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.sut.TargetSpec;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * A started target that is no process: alive until a test kills it, when it does what the run's starter makes a real
 * one do (stop the load on it); every step the design takes with it goes to the test's list of events.
 */
final class FakeJvm implements TargetVisit {
    private final TargetSpec spec;
    private final int jvm;
    private final boolean inSet;
    private final String name;
    private final List<String> events;
    private final Runnable stopLoad;
    private volatile boolean alive = true;

    /**
     * @param inSet    started beside the others (paired design): {@code jvm} is its set, else its repeat
     * @param name     as the events name it: the target, its repeat or set, and which JVM of it ("a#1", "a#1 (2nd JVM)")
     * @param stopLoad what the starter does when a JVM dies under load: cancel the driver's loads
     */
    FakeJvm(TargetSpec spec, int jvm, boolean inSet, String name, List<String> events, Runnable stopLoad) {
        this.spec = spec;
        this.jvm = jvm;
        this.inSet = inSet;
        this.name = name;
        this.events = events;
        this.stopLoad = stopLoad;
    }

    String name() {
        return name;
    }

    void die() {
        alive = false;
        events.add(name + " died");
        stopLoad.run();
    }

    @Override
    public TargetSpec spec() {
        return spec;
    }

    @Override
    public int jvm() {
        return jvm;
    }

    @Override
    public URI base() {
        return URI.create("http://127.0.0.1:9");
    }

    /** A process that exists, so that the probes read at a block's edges read one, and no JVM, whose JIT would count as this one's. */
    @Override
    public long pid() {
        return IdleProcess.PID;
    }

    @Override
    public boolean alive() {
        return alive;
    }

    @Override
    public String exitDescription() {
        return "code 137";
    }

    @Override
    public String exited(String when) {
        return "target exited " + when + " (" + exitDescription() + ")";
    }

    @Override
    public Result stamp(Result r) {
        return inSet ? r.withSet(jvm, null) : r.withRepeat(jvm, null);
    }

    @Override
    public Warmup.Outcome warm(Scenario scenario, Measurer.Task task) {
        events.add("compile " + name + " " + scenario.name());
        return new Warmup.Outcome(true, 1, 1000, null, List.of(), new Warmup.CompileStage(1, 2));
    }

    /** No recording to dump: the paired design's results get no profile, and its run log says why. */
    @Override
    public String dumpJfr(Path file) {
        events.add("dump " + file.getFileName());
        return "a fake JVM records no JFR";
    }

    @Override
    public ProfileSource dumpProfile(String base, String noJfr) {
        return ProfileSource.jfr(base, noJfr);
    }

    /** The sequential tests' procedure measures nothing on it. */
    @Override
    public Result measure(Scenario scenario, Measurer.Task task) {
        throw new UnsupportedOperationException("no load on a fake JVM");
    }

    @Override
    public void close() {
        events.add("stop " + name);
    }
}
