package dev.loomflux.lab.measure;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.driver.Errors;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.profile.AsyncAgent;
import dev.loomflux.lab.profile.CategoryRules;
import dev.loomflux.lab.profile.ProfileSource;
import dev.loomflux.lab.profile.TargetProfile;
import dev.loomflux.lab.profile.TimeWindow;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.Hlog;
import dev.loomflux.lab.result.JvmFacts;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.SeriesCsv;
import dev.loomflux.lab.steady.SteadyRule;
import dev.loomflux.lab.sut.Downstream;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.telemetry.CpuCanary;
import dev.loomflux.lab.telemetry.JfrDump;
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
     * One measured load: its profile, the warmup budget before it, whether the warmup starts with a
     * compile stage (not for a capacity step after the first: that JVM has compiled the scenario), and
     * the suffix of its file names.
     */
    public record Load(Profile profile, Duration warmup, boolean compileFirst, String suffix) {
    }

    private final LaunchSettings settings;
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
        this.settings = run.settings();
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

    public Result measure(RunningTarget target, Scenario scenario, Load load, List<Phase> before) {
        String name = target.spec().name();
        Profile profile = load.profile();
        LoadSpec spec = new LoadSpec(target.base(), scenario.path(), profile, cpus.driver().size(), REQUEST_TIMEOUT, scenario.mix());
        int stubRestarts = downstream == null ? 0 : downstream.restarts();
        int dbRestarts = database == null ? 0 : database.restarts();
        heard.clear();
        long warmupFrom = System.currentTimeMillis();
        try {
            DataCopy.reset(database, target.spec(), scenario);
            log.line(name + " " + scenario.name() + ": warmup until steady (up to " + load.warmup().toSeconds() + " s)");
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
                Warmup.Outcome compiled = compileStage(target, scenario, load, spec, signals);
                Duration budget = rest(load, compiled);
                if (continuous) {
                    Warmup.Measured wm = Warmup.runThenMeasure(driver, spec, budget, SteadyRule.DEFAULT, signals,
                            progress(name, scenario, "warmup"), progress(name, scenario, "measure"), measuring, stop);
                    warm = wm.warmup().after(compiled);
                    m = wm.measurement();
                } else {
                    warm = Warmup.run(driver, spec, budget, SteadyRule.DEFAULT, signals, progress(name, scenario, "warmup"), stop).after(compiled);
                    measuring.run();
                    m = stop.requested() ? null : driver.run(spec, progress(name, scenario, "measure"));
                }
            } finally {
                if (driverCpus[0] != null) {
                    driverCpus[0].close();
                }
            }
            Cgroup.Usage groupAtEnd = target.cgroup() == null ? null : target.cgroup().usage();
            DriverCpu driverCpu = driverCpus[0];
            if (!stop.requested() && !target.process().isAlive()) {
                // Died before the measurement had a result (its load was cancelled): the target's exit, not an
                // interruption of the run (docs/reliability.md).
                return exited(target, name, scenario, warmupFrom);
            }
            if (m == null || driverCpu == null || stop.requested()) {
                throw new LabException("interrupted");
            }
            log.line(name + " " + scenario.name() + ": " + (warm.steady() ? "warmup was steady after " + warm.secondsToSteady() + " s"
                    : "NOT steady after " + warm.millis() / 1000 + " s" + (warm.check() == null ? "" : " (" + warm.check().describe() + ")")
                    + "; the measurement takes part in no verdict, consider a longer --warmup"));
            driver.lastLoadLines().forEach(line -> log.line(name + " " + scenario.name() + ": " + line));
            long measuredFrom = m.intervals().isEmpty() ? System.currentTimeMillis() - m.elapsed().toMillis() : m.intervals().get(0).getStartTimeStamp();
            Phase warmup = new Phase("warmup", warmupFrom, measuredFrom);
            String base = name + "." + scenario.name() + load.suffix();
            Phase measured = new Phase("measured", measuredFrom, measuredFrom + m.elapsed().toMillis());
            boolean open = profile instanceof Profile.Rate;
            String hlog = base + ".hlog";
            Hlog.write(dir.resolve(hlog), name + " " + scenario.name() + " " + scenario.path(), m.intervals());
            for (int i = 0; i < m.agents().size(); i++) {
                Hlog.write(dir.resolve(agentHlog(base, i)), name + " " + scenario.name() + " " + scenario.path() + " on JMeter agent " + m.agents().get(i).agent(),
                        m.agents().get(i).intervals());
            }
            // The same load for the driver on its own, e.g. a Hyperfoil controller with agents on other machines (docs/scale-out.md).
            String plan = driver.export(spec, "loomflux-" + base).write(dir, base);
            String jfr = base + ".jfr";
            String noJfr = dumpJfr(target, dir.resolve(jfr));
            Result.Telemetry telemetry;
            try {
                telemetry = telemetry(MeasuredResult.series(m, open), target, measured, jfr, noJfr, profile, before, warmup);
            } catch (RuntimeException e) {
                // Telemetry must never cost a finished measurement.
                log.line(name + " " + scenario.name() + ": telemetry incomplete: " + e);
                telemetry = new Result.Telemetry(MeasuredResult.series(m, open), null, null, null, String.valueOf(e));
            }
            String csv = base + ".series.csv";
            SeriesCsv.write(dir.resolve(csv), telemetry.series());
            List<FlowResult> flows = FlowResults.of(m.flows(), dir, base, name + " " + scenario.name(), measured.fromMs(), measured.toMs());
            Result r = MeasuredResult.of(name, scenario.name(), m, open, flows,
                    new Result.Files(hlog, plan, csv, noJfr == null ? jfr : null), telemetry,
                    new Result.Checks(SteadyStateReport.of(sampler, warm, load.warmup(), warmup, measured, telemetry.series(), continuous),
                            driverCpu.check(m.elapsed()).withAgents(MeasuredResult.agents(m, i -> agentHlog(base, i))),
                            target.cgroup() != null && groupAtStart[0] != null ? MeasuredResult.limits(target.cgroup().limits(), groupAtStart[0], groupAtEnd) : null));
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
            Result.DataRows rows = DataCopy.count(database, target.spec(), scenario, log);
            if (rows != null) {
                r = r.withDataRows(rows);
            }
            if (m.responses() == 0) {
                // Not a sample of the target's speed: statistics over repeats must not average it in.
                Errors e = m.errors();
                if (e.total() == 0) {
                    // Every request outlived the window, still queued: slower than the window, not failed
                    return Result.failed(name, scenario.name(), "no responses within the measured " + m.elapsed().toMillis() / 1000.0 + " s: "
                            + m.requests() + " requests sent, none answered and none failed (each took longer than the window; a longer --duration)");
                }
                return Result.failed(name, scenario.name(), "no responses: all " + m.requests() + " requests failed (" + e.timeout() + " timeouts, "
                        + e.connect() + " connect errors, " + e.status4xx() + " 4xx, " + e.status5xx() + " 5xx, " + e.other() + " other)");
            }
            return r.withProfile(TargetProfile.write(dir, base, dumpProfile(target, base, noJfr), List.of(TimeWindow.ofMillis(measured.fromMs(), measured.toMs())),
                    Metric.CPU_PER_REQUEST.read(r), categories, line -> log.line(name + " " + scenario.name() + ": " + line)).profile());
        } catch (LabException e) {
            if (!stop.requested() && !target.process().isAlive()) {
                // "cannot connect ...: Connection refused" from a probe is the symptom; the exit is the cause
                return exited(target, name, scenario, warmupFrom);
            }
            log.line(name + " " + scenario.name() + ": failed: " + e.getMessage());
            return Result.failed(name, scenario.name(), e.getMessage());
        }
    }

    /**
     * The paired design's warmup of one JVM: the compile stage alone, on the target's and the driver's CPUs (which
     * the driver's 2 users leave mostly idle), then back on the target CPUs; one JVM at a time, since two compiling
     * at once starve the one beside the driver. The profile's own load follows in the rounds' lead-in rounds, every
     * JVM side by side: a steady stage per JVM would cost minutes and mostly judge the machine's noise, not the JVM
     * (docs/statistics.md, "The paired design", step 2; docs/reproducibility.md, "The default: compile stage, ten
     * lead-in rounds, two sets").
     */
    public Warmup.Outcome compile(RunningTarget target, Scenario scenario, Load load) {
        heard.clear();
        long pid = target.process().pid();
        cpus.move(pid, cpus.startCpus());
        // A sampler of its own: the run's watches no target in rounds, whose blocks read each JVM at their edges.
        try (ResourceSampler own = new ResourceSampler().watch(ResourceReport.TARGET, () -> List.of(pid), true).start()) {
            // The rule reads the JIT from the sampler, which needs two ticks (its first at its start): without them the
            // compile stage finds no JIT counters and ends before the JIT has done its work.
            Pause.sleep(ResourceSampler.PERIOD.plusMillis(500));
            return compileStage(target, scenario, load, new LoadSpec(target.base(), scenario.path(), load.profile(), cpus.driver().size(), REQUEST_TIMEOUT, scenario.mix()),
                    new SteadySignals(own, canary));
        } finally {
            if (target.process().isAlive()) {
                cpus.move(pid, cpus.target());
            }
        }
    }

    /** One agent's latency log beside the load's: the agent's number, as the report lists them. */
    private static String agentHlog(String base, int agent) {
        return base + ".agent" + (agent + 1) + ".hlog";
    }

    private Warmup.Outcome compileStage(RunningTarget target, Scenario scenario, Load load, LoadSpec spec, SteadySignals signals) {
        String name = target.spec().name();
        // Few users cannot be asked of a load that keeps its own length: its thread groups have theirs.
        Warmup.Outcome compiled = load.compileFirst() && !driver.keepsOwnLength()
                ? Warmup.compile(driver, spec, target.cpus(), Warmup.compileBudget(load.warmup()), SteadyRule.DEFAULT, signals, progress(name, scenario, "warmup (compile)"), stop)
                : Warmup.Outcome.NONE;
        if (!compiled.series().isEmpty()) {
            log.line(name + " " + scenario.name() + ": compile stage " + (compiled.steady() ? "quiet" : "ended") + " after "
                    + compiled.series().size() + " s at " + compiled.compileUsers() + " users" + (compiled.check() == null ? "" : " (" + compiled.check().describe() + ")"));
        }
        return compiled;
    }

    private static Duration rest(Load load, Warmup.Outcome compiled) {
        Duration budget = load.warmup().minusMillis(compiled.millis());
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
     * Dumps the target's JFR recording, from its start up to now, to {@code file}: what its JVM summary and its CPU profile are
     * read from.
     *
     * @return null when dumped, else why not (one line); never an exception, as telemetry must never cost a measurement
     */
    public String dumpJfr(RunningTarget target, Path file) {
        if (!target.process().isAlive()) {
            return "target exited before its JFR recording could be dumped";
        }
        try {
            return JfrDump.dump(settings.jdk(), target.process().pid(), file);
        } catch (RuntimeException e) {
            return "cannot dump JFR: " + e;
        }
    }

    /**
     * The recording the target's CPU profile is read from: the JFR recording just dumped, or with {@code --profiler async}
     * async-profiler's, dumped now to {@code <base>.async.jfr}.
     *
     * @param noJfr null when the JFR recording was dumped to {@code <base>.jfr}, else why not
     */
    public ProfileSource dumpProfile(RunningTarget target, String base, String noJfr) {
        AsyncAgent async = settings.async();
        if (async == null) {
            return ProfileSource.jfr(base, noJfr);
        }
        String file = base + ".async.jfr";
        String why = target.process().isAlive() ? async.dump(settings.jdk(), target.process().pid(), dir, dir.resolve(file))
                : "target exited before async-profiler's recording could be dumped";
        return new ProfileSource(async.mode(), file, why == null ? null : "no async-profiler recording: " + why);
    }

    /**
     * The target's resources per second and per phase, and its JVM internals over the measured
     * window from its JFR dump. Waits for the sampler's reading that covers the last second.
     *
     * @param noJfr null when the recording was dumped to {@code jfr}, else why not
     */
    private Result.Telemetry telemetry(List<Result.PerSecond> series, RunningTarget target, Phase measured, String jfr, String noJfr, Profile profile,
                                       List<Phase> before, Phase warmup) {
        long t0 = measured.fromMs();
        long t1 = measured.toMs();
        JvmFacts jvm = JvmSummary.of(dir.resolve(jfr), Instant.ofEpochMilli(t0), Instant.ofEpochMilli(t1), target.spec().virtualThreads(), noJfr);
        Pause.sleep(Duration.ofMillis(Math.max(0, t1 + ResourceSampler.PERIOD.toMillis() + 600 - System.currentTimeMillis())));
        List<Phase> phases = new ArrayList<>(before);
        phases.add(warmup);
        phases.addAll(Phase.ofProfile(profile, t0, t1));
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
