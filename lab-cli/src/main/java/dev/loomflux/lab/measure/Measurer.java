package dev.loomflux.lab.measure;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.cpuprofile.TimeWindow;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.JvmFacts;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.steady.SteadyRule;
import dev.loomflux.lab.sut.Downstream;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.telemetry.CpuCanary;
import dev.loomflux.lab.telemetry.JvmSummary;
import dev.loomflux.lab.telemetry.Reading;
import dev.loomflux.lab.telemetry.Phase;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * One load on a running target, as one results.json entry: warmed up (compile stage, then the load
 * itself until steady), measured, checked for drift, with the target's telemetry over every phase
 * and the run's files (.hlog, .series.csv, .jfr and the CPU profile read from it, the driver's plan). What is measured, and how
 * often, is a procedure's choice (profile, capacity search).
 */
public final class Measurer {
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /**
     * One measured load: its profile, the warmup budget before it, whether the warmup starts with a compile stage (not for a
     * capacity step after the first: that JVM has compiled the scenario), and what tells its files apart from the others of
     * its target and scenario.
     */
    public record Task(LoadProfile profile, Duration warmup, boolean compileFirst, ResultFiles.Tag files) {
        /** The same load, its files told apart by {@code files}. */
        public Task tagged(ResultFiles.Tag files) {
            return new Task(profile, warmup, compileFirst, files);
        }
    }

    /**
     * A warmup and the measured window after it.
     *
     * @param m            the measurement, null when the run was stopped first
     * @param driverCpu    the driver's CPU over the window, null when it never started
     * @param groupAtStart the target's cgroup as the window started, null without one
     * @param continuous   whether the load went on from the warmup into the window on the same connections
     */
    private record WarmWindow(Warmup.Outcome warm, Measurement m, DriverCpu driverCpu, Cgroup.Usage groupAtStart, Cgroup.Usage groupAtEnd,
                              boolean continuous) {
    }

    private final Recordings recordings;
    private final CpuPlan cpus;
    private final ResourceSampler sampler;
    private final CpuCanary canary;
    private final Downstream downstream;
    private final Database database;
    private final Path dir;
    private final Log log;
    private final CategoryRules categories;
    private final Supplier<String> statusPrefix;
    private final LoadDriver driver;
    private final Stop stop;
    /** The load's seconds of the current target, for its series should it die. */
    private final List<Heard> heard = Collections.synchronizedList(new ArrayList<>());

    /**
     * @param run          the run, its support processes up: a restart of the stub or the database during a measurement voids it,
     *                     and a measurement cut short by the run's stop is no result
     * @param statusPrefix the run's progress, put before each second's status line ("" for none)
     */
    public Measurer(RunContext run, Supplier<String> statusPrefix) {
        this.recordings = new Recordings(run.settings(), run.dir());
        this.cpus = run.cpus();
        this.sampler = run.sampler();
        this.canary = run.canary();
        this.downstream = run.stub();
        this.database = run.database();
        this.dir = run.dir();
        this.log = run.log();
        this.categories = run.categories();
        this.statusPrefix = statusPrefix;
        this.driver = run.driver();
        this.stop = run.stop();
    }

    public Result measure(RunningTarget target, Scenario scenario, Task task, List<Phase> before) {
        String name = target.spec().name();
        int stubRestarts = downstream == null ? 0 : downstream.restarts();
        int dbRestarts = database == null ? 0 : database.restarts();
        heard.clear();
        long warmupFrom = System.currentTimeMillis();
        try {
            DataCopy.reset(database, target.spec(), scenario);
            log.line(name + " " + scenario.name() + ": warmup until steady (up to " + task.warmup().toSeconds() + " s)");
            WarmWindow w = warmAndMeasure(target, scenario, task);
            if (!stop.requested() && !target.process().isAlive()) {
                // Died before the measurement had a result (its load was cancelled): the target's exit, not an
                // interruption of the run (docs/reliability.md).
                return exited(target, name, scenario, warmupFrom);
            }
            if (w.m() == null || w.driverCpu() == null || stop.requested()) {
                throw new LabException("interrupted");
            }
            Warmup.Outcome warm = w.warm();
            Measurement m = w.m();
            log.line(name + " " + scenario.name() + ": " + (warm.steady() ? "warmup was steady after " + warm.secondsToSteady() + " s"
                    : "NOT steady after " + warm.millis() / 1000 + " s" + (warm.check() == null ? "" : " (" + warm.check().describe() + ")")
                    + "; the measurement takes part in no verdict, consider a longer --warmup"));
            driver.lastLoadLines().forEach(line -> log.line(name + " " + scenario.name() + ": " + line));
            long measuredFrom = m.intervals().isEmpty() ? System.currentTimeMillis() - m.elapsed().toMillis() : m.intervals().get(0).getStartTimeStamp();
            Timeline phases = new Timeline(before, new Phase("warmup", warmupFrom, measuredFrom), new Phase("measured", measuredFrom, measuredFrom + m.elapsed().toMillis()));
            ResultFiles files = ResultFiles.of(dir, name, scenario.name(), task.files(), List.of(TimeWindow.ofMillis(measuredFrom, phases.measured().toMs())));
            Written written = write(target, scenario, task, w, files, phases);
            if (!target.process().isAlive()) {
                return exited(target, name, scenario, warmupFrom);
            }
            if (scenario.needsDownstream() && downstream.restarts() != stubRestarts) {
                return Result.failed(name, scenario.name(), "the downstream stub died during the warmup or measurement and was "
                        + "started again: the failures were the stub's, not the target's (run.log has when)");
            }
            if (scenario.needsDatabase() && database.restarts() != dbRestarts) {
                return Result.failed(name, scenario.name(), "PostgreSQL died during the warmup or measurement and was "
                        + "started again: what the measurement saw of that (errors, a stall) was the database's, not the target's (run.log has when)");
            }
            Result r = written.result();
            Result.DataRows rows = DataCopy.count(database, target.spec(), scenario, log);
            if (rows != null) {
                r = r.withDataRows(rows);
            }
            if (m.responses() == 0) {
                return MeasuredResult.noResponses(name, scenario.name(), m);
            }
            return r.withProfile(files.profile(recordings.dumpProfile(target, files.stem(), written.noJfr()), Metric.CPU_PER_REQUEST.read(r), categories,
                    line -> log.line(name + " " + scenario.name() + ": " + line)).profile());
        } catch (LabException e) {
            if (!stop.requested() && !target.process().isAlive()) {
                // "cannot connect ...: Connection refused" from a probe is the symptom; the exit is the cause
                return exited(target, name, scenario, warmupFrom);
            }
            log.line(name + " " + scenario.name() + ": failed: " + e.getMessage());
            return Result.failed(name, scenario.name(), e.getMessage());
        }
    }

    /** The compile stage, the warmup until steady and the measured window, in one load where the profile allows. */
    private WarmWindow warmAndMeasure(RunningTarget target, Scenario scenario, Task task) {
        String name = target.spec().name();
        LoadProfile profile = task.profile();
        LoadSpec spec = spec(target, scenario, task);
        SteadySignals signals = new SteadySignals(sampler, canary);
        Warmup.Outcome warm;
        Measurement m;
        DriverCpu[] driverCpus = new DriverCpu[1];
        Cgroup.Usage[] groupAtStart = new Cgroup.Usage[1];
        Runnable measuring = () -> {
            log.line(name + " " + scenario.name() + ": measuring (" + profile.kind() + ")");
            driverCpus[0] = new DriverCpu(cpus.driver().size(), driver::processes);
            groupAtStart[0] = target.cgroup() == null ? null : target.cgroup().usage();
        };
        // A load that keeps its own length (a user's JMeter plan) cannot run on from the warmup into the window.
        boolean continuous = Warmup.continuous(profile) && !driver.keepsOwnLength();
        try {
            Warmup.Means means = new Warmup.Means(driver, SteadyRule.DEFAULT, signals, stop);
            Warmup.Outcome compiled = compileStage(target, scenario, task, spec, means);
            Duration budget = rest(task, compiled);
            if (continuous) {
                Warmup.Measured wm = Warmup.runThenMeasure(means, spec, budget, progress(name, scenario, "warmup"), progress(name, scenario, "measure"), measuring);
                warm = wm.warmup().after(compiled);
                m = wm.measurement();
            } else {
                warm = Warmup.run(means, spec, budget, progress(name, scenario, "warmup")).after(compiled);
                measuring.run();
                m = stop.requested() ? null : driver.run(spec, progress(name, scenario, "measure"));
            }
        } finally {
            if (driverCpus[0] != null) {
                driverCpus[0].close();
            }
        }
        Cgroup.Usage groupAtEnd = target.cgroup() == null ? null : target.cgroup().usage();
        return new WarmWindow(warm, m, driverCpus[0], groupAtStart[0], groupAtEnd, continuous);
    }

    /**
     * A measured window's result, before the checks that may void it.
     *
     * @param noJfr null when the JFR recording was dumped, else why not
     */
    private record Written(Result result, String noJfr) {
    }

    /** @param before what the target went through before any load (startup, and idle in the sequential design) */
    private record Timeline(List<Phase> before, Phase warmup, Phase measured) {
    }

    /** The window's files (latency logs, the driver's plan, the JFR recording, the series) and its result over them. */
    private Written write(RunningTarget target, Scenario scenario, Task task, WarmWindow w, ResultFiles files, Timeline phases) {
        String name = target.spec().name();
        Measurement m = w.m();
        boolean open = task.profile() instanceof LoadProfile.Rate;
        String hlog = files.hlog(name + " " + scenario.name() + " " + scenario.path(), m.intervals());
        for (int i = 0; i < m.agents().size(); i++) {
            files.agentHlog(i, name + " " + scenario.name() + " " + scenario.path() + " on " + driver.type().title() + " agent " + m.agents().get(i).agent(), m.agents().get(i).intervals());
        }
        LoadSpec spec = spec(target, scenario, task);
        String plan = files.plan(planName -> driver.export(spec, planName));
        String noJfr = files.dumpJfr(file -> recordings.dumpJfr(target, file));
        Phase measured = phases.measured();
        List<Phase> loadPhases = new ArrayList<>(phases.before());
        loadPhases.add(phases.warmup());
        loadPhases.addAll(Phase.ofProfile(task.profile(), measured.fromMs(), measured.toMs()));
        Result.Telemetry telemetry;
        try {
            telemetry = telemetry(MeasuredResult.series(m, open), target, measured, dir.resolve(files.jfr()), noJfr, loadPhases);
        } catch (RuntimeException e) {
            // Telemetry must never cost a finished measurement.
            log.line(name + " " + scenario.name() + ": telemetry incomplete: " + e);
            telemetry = new Result.Telemetry(MeasuredResult.series(m, open), null, null, null, String.valueOf(e));
        }
        String csv = files.seriesCsv(telemetry.series());
        List<FlowResult> flows = files.flows(m.flows(), name + " " + scenario.name());
        Result r = MeasuredResult.of(name, scenario.name(), MeasuredResult.window(m, open, flows), new Result.Files(hlog, plan, csv, noJfr == null ? files.jfr() : null),
                telemetry, new Result.Checks(SteadyStateReport.of(sampler, w.warm(), task.warmup(), phases.warmup(), measured,
                        SteadyStateReport.drift(telemetry.series(), w.warm(), w.continuous())),
                        w.driverCpu().check(m.elapsed()).withAgents(MeasuredResult.agents(m, files::agentHlogName)),
                        target.cgroup() != null && w.groupAtStart() != null ? MeasuredResult.limits(target.cgroup().limits(), w.groupAtStart(), w.groupAtEnd()) : null));
        return new Written(r, noJfr);
    }

    /** The task's load on the target: its profile, over the driver's CPUs, the scenario's request or mix. */
    private LoadSpec spec(RunningTarget target, Scenario scenario, Task task) {
        return new LoadSpec(target.base(), scenario.path(), task.profile(), cpus.driver().size(), REQUEST_TIMEOUT, scenario.mix());
    }

    /** Where the target's recordings are dumped. */
    public Recordings recordings() {
        return recordings;
    }

    /**
     * The paired design's warmup of one JVM, in two stages, one JVM at a time. The compile stage on the target's and the
     * driver's CPUs (which the driver's 2 users leave mostly idle); two JVMs compiling at once starve the one beside the
     * driver. Then, back on the target's CPUs, the task's own load (its users, flow, mix or rate) until the JIT is quiet by the
     * steady rule's limits, the rest of the warmup budget at most: at the measured load new paths, recompilations and, for a
     * real app, most of its code compile, which a compile stage at 2 users leaves for the rounds (docs/steady-state.md, "Warm
     * at the measured load").
     */
    public Warmup.Outcome warm(RunningTarget target, Scenario scenario, Task task) {
        heard.clear();
        long pid = target.process().pid();
        String name = target.spec().name();
        LoadSpec spec = spec(target, scenario, task);
        // A sampler of its own: the run's watches no target in rounds, whose blocks read each JVM at their edges.
        try (ResourceSampler own = new ResourceSampler().watch(ResourceReport.TARGET, () -> List.of(pid), true).start()) {
            // The rule reads the JIT from the sampler, which needs two ticks (its first at its start): without them the
            // compile stage finds no JIT counters and ends before the JIT has done its work.
            Pause.sleep(ResourceSampler.PERIOD.plusMillis(500));
            SteadySignals signals = new SteadySignals(own, canary);
            Warmup.Outcome compiled;
            Warmup.Means means = new Warmup.Means(driver, SteadyRule.DEFAULT, signals, stop, Warmup.PAIRED_QUIET_SECONDS);
            cpus.move(pid, cpus.startCpus());
            try {
                compiled = compileStage(target, scenario, task, spec, means);
            } finally {
                if (target.process().isAlive()) {
                    cpus.move(pid, cpus.target());
                }
            }
            Warmup.Outcome loaded = target.process().isAlive() ? Warmup.untilQuiet(means, spec,
                    rest(task, compiled), progress(name, scenario, "warmup (load)")) : Warmup.Outcome.NONE;
            if (!loaded.series().isEmpty()) {
                log.line(name + " " + scenario.name() + ": load stage " + (loaded.steady() ? "quiet after " : "ended at its cap, its JIT still compiling (a longer --warmup lets it finish), after ")
                        + loaded.series().size() + " s at the measured load" + (loaded.check() == null ? "" : " (" + loaded.check().describe() + ")"));
            }
            return loaded.after(compiled);
        }
    }

    private Warmup.Outcome compileStage(RunningTarget target, Scenario scenario, Task task, LoadSpec spec, Warmup.Means means) {
        String name = target.spec().name();
        // Few users cannot be asked of a load that keeps its own length: its thread groups have theirs.
        Warmup.Outcome compiled = task.compileFirst() && !driver.keepsOwnLength()
                ? Warmup.compile(means, spec, target.cpus(), Warmup.compileBudget(task.warmup()),
                progress(name, scenario, "warmup (compile)"))
                : Warmup.Outcome.NONE;
        if (!compiled.series().isEmpty()) {
            log.line(name + " " + scenario.name() + ": compile stage " + (compiled.steady() ? "quiet" : "ended") + " after "
                    + compiled.series().size() + " s at " + compiled.compileUsers() + " users" + (compiled.check() == null ? "" : " (" + compiled.check().describe() + ")"));
        }
        return compiled;
    }

    private static Duration rest(Task task, Warmup.Outcome compiled) {
        Duration budget = task.warmup().minusMillis(compiled.millis());
        return budget.isNegative() ? Duration.ZERO : budget;
    }

    /**
     * Led by what ended it when its log or cgroup tells (out of heap, the memory limit, a crash), then its last words; with
     * what the load and the sampler saw of it up to its death: how its memory, threads and files grew as it ran out.
     */
    private Result exited(RunningTarget target, String name, Scenario scenario, long loadFrom) {
        String error = target.exitCause().map(c -> c + ": ").orElse("") + "target exited during the run (" + target.process().exitDescription()
                + "); last lines:\n" + target.process().logTail(10);
        try {
            List<Result.PerSecond> rows = new ArrayList<>(ResourceReport.addToSeries(sampler, canary, untilDeath(loadFrom), loadFrom));
            List<Reading> readings = sampler.readings(ResourceReport.TARGET, loadFrom, Long.MAX_VALUE);
            Reading last = readings.isEmpty() ? null : readings.get(readings.size() - 1);
            // The load reports a second or two after the death (its errors), which no reading covers; and a target that died
            // within a second of a reading has none where the series looks (mid-second), so its last second gets the last one.
            int lastT = last == null ? -1 : (int) ((last.epochMs() - loadFrom) / 1000);
            rows.removeIf(r -> r.t() > lastT);
            if (!rows.isEmpty() && rows.get(rows.size() - 1).target().rssMb() == null) {
                Result.PerSecond r = rows.remove(rows.size() - 1);
                rows.add(r.withTarget(new Result.SecondTarget(Result.round(last.cpuPct()), Result.round(last.rssMb()), last.threads(),
                        last.fds() < 0 ? null : last.fds()), Result.SecondJit.NONE, r.beside()));
            }
            return Result.failed(name, scenario.name(), error, rows);
        } catch (RuntimeException e) {
            // The cause must never be lost to its telemetry.
            log.line(name + " " + scenario.name() + ": no series up to its exit: " + e);
            return Result.failed(name, scenario.name(), error);
        }
    }

    /** The seconds the load reported since {@code loadFrom}, placed by when each began; the last one per second. */
    private List<Result.PerSecond> untilDeath(long loadFrom) {
        Map<Integer, Result.PerSecond> rows = new TreeMap<>();
        synchronized (heard) {
            for (Heard h : heard) {
                if (h.atMs() >= loadFrom) {
                    int t = (int) ((h.atMs() - loadFrom) / 1000);
                    rows.put(t, MeasuredResult.second(t, h.second()));
                }
            }
        }
        return List.copyOf(rows.values());
    }

    /** @param atMs when the second began, as near as its stage tells */
    private record Heard(long atMs, Second second) {
    }

    /**
     * The target's resources per second and per phase, and its JVM internals over the measured
     * window from its JFR dump. Waits for the sampler's reading that covers the last second.
     *
     * @param noJfr  null when the recording was dumped to {@code jfr}, else why not
     * @param phases the target's phases: before any load, the warmup and the profile's within the window
     */
    private Result.Telemetry telemetry(List<Result.PerSecond> series, RunningTarget target, Phase measured, Path jfr, String noJfr, List<Phase> phases) {
        long t0 = measured.fromMs();
        long t1 = measured.toMs();
        JvmFacts jvm = JvmSummary.of(jfr, Instant.ofEpochMilli(t0), Instant.ofEpochMilli(t1), target.spec().virtualThreads(), noJfr);
        Pause.sleep(Duration.ofMillis(Math.max(0, t1 + ResourceSampler.PERIOD.toMillis() + 600 - System.currentTimeMillis())));
        return new Result.Telemetry(ResourceReport.addToSeries(sampler, canary, series, t0), jvm, null, ResourceReport.phases(sampler, phases, t0), null);
    }

    private SecondListener progress(String target, Scenario scenario, String phase) {
        // The run's progress first: a narrow terminal cuts the live line's end, not its ETA.
        // A stage's seconds count from its own start, and come late and bunched when the machine struggles (a target running
        // out of heap): placed by the stage's start, and where one listener's clock starts again (the compile stage's probe,
        // then its stage), by when the restart came.
        long[] zero = {System.currentTimeMillis()};
        int[] lastT = {-1};
        return (Second s) -> {
            if (s.t() <= lastT[0]) {
                zero[0] = System.currentTimeMillis() - s.t() * 1000L;
            }
            lastT[0] = s.t();
            heard.add(new Heard(zero[0] + s.t() * 1000L, s));
            log.status(String.format("  %s%s %s %s t=%ds users=%d rps=%.0f p99=%s errors=%d",
                statusPrefix.get(), target, scenario.name(), phase, s.t(), s.users(), s.rps(),
                    Double.isNaN(s.p99Ms()) ? "-" : String.format("%.1fms", s.p99Ms()), s.errors()));
        };
    }
}
