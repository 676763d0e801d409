package dev.loomflux.lab.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomflux.lab.Home;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.capacity.CapacityPlan;
import dev.loomflux.lab.capacity.CapacitySearch;
import dev.loomflux.lab.capacity.CapacitySummary;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.db.DatabaseSource;
import dev.loomflux.lab.driver.DriverLog;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.limits.LimitsReport;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.process.Reaper;
import dev.loomflux.lab.report.Report;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.Hlog;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.ScenarioResult;
import dev.loomflux.lab.result.SeriesCsv;
import dev.loomflux.lab.target.Downstream;
import dev.loomflux.lab.target.Http;
import dev.loomflux.lab.target.LaunchSettings;
import dev.loomflux.lab.target.RunningTarget;
import dev.loomflux.lab.target.TargetSpec;
import dev.loomflux.lab.telemetry.JfrDump;
import dev.loomflux.lab.telemetry.JvmSummary;
import dev.loomflux.lab.telemetry.Phase;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import dev.loomflux.lab.telemetry.CpuCanary;
import dev.loomflux.lab.telemetry.Reading;
import dev.loomflux.lab.steady.Drift;
import dev.loomflux.lab.steady.Point;
import dev.loomflux.lab.steady.SteadyRule;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.Map;

/**
 * Runs an experiment: per target, start it, wait until ready, and per scenario warm up and
 * measure; then stop it and cool down before the next. One target is alive at a time.
 */
public final class Runner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** Seed 000's "idle" phase: the ready target before any load. */
    private static final Duration IDLE = Duration.ofSeconds(3);

    private final Home home;
    private final Experiment experiment;
    private final LaunchSettings settings;
    private final CpuPlan cpus;
    private final DatabaseSource databaseSource;
    private final PrintWriter console;
    private final ResourceSampler sampler = new ResourceSampler();
    private CpuCanary canary;
    private final CapacityPlan capacity;
    private final List<Map<String, Object>> capacities = new ArrayList<>();
    /** The run's stub, when its scenarios need one. */
    private Downstream downstream;
    private volatile Database database;
    /** Null for a capacity search: its number of steps is not known ahead. */
    private final Progress progress;
    /** The live target's pid for the sampler; 0 between targets. */
    private final AtomicLong targetPid = new AtomicLong();
    private final AtomicReference<Cgroup> targetGroup = new AtomicReference<>();

    /** Runs the experiment's own profile on every target x scenario. */
    public Runner(Home home, Experiment experiment, LaunchSettings settings, CpuPlan cpus, DatabaseSource databaseSource, PrintWriter console) {
        this(home, experiment, settings, cpus, databaseSource, console, null);
    }

    /** @param capacity when not null, searches each target x scenario's capacity with rate steps instead */
    public Runner(Home home, Experiment experiment, LaunchSettings settings, CpuPlan cpus, DatabaseSource databaseSource, PrintWriter console,
                  CapacityPlan capacity) {
        this.capacity = capacity;
        this.home = home;
        this.experiment = experiment;
        this.settings = settings;
        this.cpus = cpus;
        this.databaseSource = databaseSource;
        this.console = console;
        this.progress = capacity == null ? Progress.of(experiment, IDLE) : null;
    }

    /** @return the results file */
    public ResultsFile run() {
        experiment.targets().forEach(t -> t.requireBuilt(home));
        Path dir = home.newRunDir(experiment.name());
        String runId = dir.getFileName().toString();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new LabException("cannot create the run's results directory " + dir + ": " + whyNotCreated(dir, e), e);
        }
        // The lab JVM is the driver; pin it before anything else starts so its threads inherit the set.
        long self = ProcessHandle.current().pid();
        String before = CpuPlan.affinityOf(self);
        cpus.move(self, cpus.driver());
        try (RunLog log = new RunLog(console, dir.resolve("run.log"), System.console() != null); DriverLog driverLog = new DriverLog(dir.resolve("driver.log")); sampler;
             CpuCanary c = new CpuCanary(tid -> cpus.moveThread(tid, cpus.target()))) {
            canary = c;
            log.line("run " + runId + ": " + experiment.targets().size() + " target(s) x " + experiment.scenarios().size()
                    + " scenario(s), profile " + experiment.profile().kind() + "; " + cpus.note()
                    + ": target CPUs " + CpuPlan.list(cpus.target()) + ", driver " + CpuPlan.list(cpus.driver()) + ", support " + CpuPlan.list(cpus.support()));
            if (progress != null) {
                log.line("estimate: " + progress.estimate());
            }
            List<String> own = experiment.targets().stream().filter(t -> t.limits().any())
                    .map(t -> t.name() + ": " + t.limits().over(settings.limits()).describe()).toList();
            if (settings.limits().any() || !own.isEmpty()) {
                log.line(Cgroup.unsupported().map(reason -> "limits NOT applied, the targets run unlimited: " + reason)
                        .orElse((settings.limits().any() ? "limits for every target: " + settings.limits().describe() : "")
                                + (own.isEmpty() ? "" : (settings.limits().any() ? "; " : "") + "limits per target: " + String.join("; ", own))));
            }
            return runIn(dir, runId, log);
        } finally {
            cpus.restore(self, before);
        }
    }

    private ResultsFile runIn(Path dir, String runId, RunLog log) {
        try (Database db = experiment.needsDatabase() ? databaseSource.open(dir, line -> {
                 log.line(line);
                 database.pids().forEach(pid -> cpus.move(pid, cpus.support()));
             }) : null;
             Downstream stub = experiment.needsDownstream() ? Downstream.start(home, settings, cpus.supportPlacement(), dir, log::line) : null) {
            downstream = stub;
            database = db;
            if (db != null) {
                // Started by the driver-pinned lab, PostgreSQL inherited the driver's CPUs; its later backends inherit these.
                db.pids().forEach(pid -> cpus.move(pid, cpus.support()));
                log.line("database: " + db.description());
            }
            URI stubUri = stub == null ? URI.create("http://127.0.0.1:9") : stub.base();
            watchSupport(stub, db);
            Map<String, Object> env = Environment.describe(home, settings.jdk(), cpus, db == null ? null : db.description());
            ResultsFile results = new ResultsFile(dir, runId, env, ExperimentDescription.of(experiment, settings));
            AtomicBoolean saidInterrupted = new AtomicBoolean();
            // Whichever comes first, the Ctrl-C hook or the run's own thread seeing the stop, writes and says it once; the
            // hook waits for the other (the lock), since the JVM halts as soon as the hook returns.
            Runnable interrupted = () -> {
                LoadDriver.cancelAll();
                synchronized (saidInterrupted) {
                    if (!saidInterrupted.getAndSet(true)) {
                        results.finish("interrupted");
                        log.line("interrupted: " + results.results().size() + " finished result(s) kept in " + results.path());
                    }
                }
            };
            AutoCloseable onInterrupt = interrupted::run;
            Reaper.register(onInterrupt);
            boolean first = true;
            for (int repeat = 1; repeat <= experiment.repeat(); repeat++) {
                for (TargetSpec target : experiment.order(repeat)) {
                    if (Reaper.stopping()) {
                        break;
                    }
                    if (!first && !experiment.cooldown().isZero()) {
                        log.line("cooldown " + experiment.cooldown().toSeconds() + " s");
                        sleep(experiment.cooldown());
                    }
                    first = false;
                    if (experiment.repeat() > 1) {
                        log.line("repeat " + repeat + " of " + experiment.repeat() + ": " + target.name());
                    }
                    runTarget(target, repeat, stubUri, db, dir, results, log);
                }
            }
            if (Reaper.stopping()) {
                interrupted.run();
                return results;
            }
            Reaper.unregister(onInterrupt);
            // Capacity steps are not repeats of one measurement: no summary over them.
            Map<String, Object> summary = capacity != null ? null : RepeatSummary.of(results.results(),
                    experiment.targets().stream().map(TargetSpec::name).toList(), experiment.scenarios().stream().map(Scenario::name).toList());
            if (summary != null) {
                results.put("summary", summary);
            }
            List<Map<String, Object>> capacitySummary = capacity != null && experiment.repeat() > 1 ? CapacitySummary.of(capacities) : List.of();
            if (!capacitySummary.isEmpty()) {
                results.put("capacity_summary", capacitySummary);
            }
            results.finish("completed");
            Summary.print(results.results(), log::line);
            if (summary != null && experiment.repeat() > 1) {
                Summary.printRepeats(summary, log::line);
            }
            capacities.forEach(c -> log.line("capacity " + c.get("target") + " " + c.get("scenario") + (experiment.repeat() > 1 ? " search " + c.get("repeat") : "")
                    + ": " + c.get("capacity_rps") + " rps meets " + capacity.slo()
                    + (Boolean.TRUE.equals(c.get("reached_max")) ? " (the --max-rps limit; the real capacity may be higher)" : "")));
            capacitySummary.forEach(m -> log.line(CapacitySummary.describe(m)));
            log.line(String.format("resource sampler: %.0f us CPU per 1 s tick", sampler.cpuMicrosPerTick()));
            report(dir, log, capacity == null);
            log.line("results: " + results.path());
            return results;
        }
    }

    /** Java's messages name the path, not what is wrong with it: the nearest existing parent usually is. */
    private static String whyNotCreated(Path dir, IOException e) {
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            return existing + " exists and is not a directory";
        }
        if (existing != null && !Files.isWritable(existing)) {
            return "no permission to write in " + existing;
        }
        return e.getMessage();
    }

    /** A report problem must not hide where the results are. */
    private static void report(Path dir, RunLog log, boolean answers) {
        try {
            Path html = Report.write(dir);
            if (answers) {
                Report.headlines(dir).forEach(h -> log.line("answer: " + h));
            }
            log.line("report: " + html.resolveSibling("report.md"));
            log.line("report: " + html + " (open it in a browser; works offline)");
        } catch (RuntimeException e) {
            log.line("report not written: " + e.getMessage() + " (retry with ./lab report " + dir + ")");
        }
    }

    private void runTarget(TargetSpec spec, int repeat, URI stub, Database db, Path dir, ResultsFile results, RunLog log) {
        RunningTarget target;
        long[] launchedAt = new long[1];
        try {
            target = RunningTarget.start(home, spec, settings, cpus.targetPlacement(), stub, db, dir, p -> {
                launchedAt[0] = System.currentTimeMillis();
                targetPid.set(p.pid());
            });
        } catch (LabException e) {
            if (Reaper.stopping()) {
                return;
            }
            log.line(spec.name() + ": did not start: " + e.getMessage());
            for (Scenario s : experiment.scenarios()) {
                addFailed(results, spec.name(), s.name(), repeat, e.getMessage());
            }
            return;
        }
        // A target that dies under load: its load ends within a second instead of hammering a closed port until the profile ends.
        target.process().onExit().thenRun(() -> {
            if (!target.process().stoppedByLab()) {
                log.line(spec.name() + ": exited (" + target.process().exitDescription() + "); stopping its load");
                LoadDriver.cancelAll();
            }
        });
        try (target) {
            targetGroup.set(target.cgroup());
            String affinity = CpuPlan.affinityOf(target.process().pid());
            log.line(spec.name() + ": ready in " + target.startupMillis() + " ms (pid " + target.process().pid() + ", CPUs " + affinity + ")");
            Object config = spec.command() == null ? targetConfig(target) : null;
            long ready = System.currentTimeMillis();
            sleep(IDLE);
            List<Phase> before = List.of(new Phase("startup", launchedAt[0], ready), new Phase("idle", ready, System.currentTimeMillis()));
            for (Scenario scenario : experiment.scenarios()) {
                if (Reaper.stopping()) {
                    return;
                }
                if (!target.process().isAlive()) {
                    addFailed(results, spec.name(), scenario.name(), repeat,
                            "not measured: the target had exited (" + target.process().exitDescription() + ")");
                    continue;
                }
                if (capacity != null) {
                    searchCapacity(target, scenario, repeat, before, dir, results, log, affinity, config);
                    continue;
                }
                String suffix = experiment.repeat() > 1 ? ".r" + repeat : "";
                unitStarted();
                Map<String, Object> r = measure(target, scenario, new Step(experiment.profile(), experiment.warmup(), true, suffix), before, dir, log);
                if (Reaper.stopping()) {
                    return; // cut short by Ctrl-C: not a result
                }
                r.put("repeat", repeat);
                results.add(withTarget(r, target, affinity, config));
                unitDone();
            }
        } finally {
            targetPid.set(0);
            targetGroup.set(null);
        }
    }

    /** A target x scenario that has no measurement, with why; it counts as done for the run's progress. */
    private void addFailed(ResultsFile results, String target, String scenario, int repeat, String why) {
        Map<String, Object> failed = ScenarioResult.failed(target, scenario, why);
        failed.put("repeat", repeat);
        results.add(failed);
        unitDone();
    }

    /**
     * One measured load: its profile, the warmup budget before it, whether the warmup starts with a
     * compile stage (not for a capacity step after the first: that JVM has compiled the scenario), and
     * the suffix of its file names.
     */
    private record Step(Profile profile, Duration warmup, boolean compileFirst, String suffix) {
    }

    /** Doubling then bisection over open-model rates; every step is a result, the outcome a "capacity" entry. */
    private void searchCapacity(RunningTarget target, Scenario scenario, int repeat, List<Phase> before, Path dir, ResultsFile results, RunLog log,
                                String affinity, Object config) {
        String name = target.spec().name();
        List<Map<String, Object>> steps = new ArrayList<>();
        CapacitySearch.Outcome outcome = CapacitySearch.search(capacity.startRps(), capacity.maxRps(), capacity.resolution(), capacity.maxSteps(), rps -> {
            if (Reaper.stopping() || !target.process().isAlive()) {
                return false;
            }
            Map<String, Object> r = capacityStep(target, scenario, repeat, rps, steps, before, dir, results, log, affinity, config);
            // A miss is measured once more before it counts, unless the driver fell behind (an overload is no accident):
            // a single miss here ended searches below the knee, by a p99 that jumped by half for one step (CI: mvc-10 at
            // 75 rps, 161 ms against 105-124 ms around it) or by a JIT still compiling steps later at a low rate.
            if (!Boolean.TRUE.equals(r.get("slo_met")) && !Boolean.TRUE.equals(r.get("behind_schedule")) && !Reaper.stopping()
                    && target.process().isAlive()) {
                log.line(name + " " + scenario.name() + ": measuring " + rps + " rps again before counting the miss");
                r = capacityStep(target, scenario, repeat, rps, steps, before, dir, results, log, affinity, config);
            }
            return Boolean.TRUE.equals(r.get("slo_met"));
        });
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("target", name);
        c.put("scenario", scenario.name());
        c.put("repeat", repeat);
        c.put("slo", capacity.slo().toString());
        c.put("capacity_rps", outcome.capacity());
        c.put("reached_max", outcome.reachedMax());
        c.put("steps", steps.stream().map(Runner::capacityPoint).toList());
        capacities.add(c);
        results.put("capacity", List.copyOf(capacities));
    }

    /** One measured rate of a capacity search, recorded as a result and as the search's next step. */
    private Map<String, Object> capacityStep(RunningTarget target, Scenario scenario, int repeat, int rps, List<Map<String, Object>> steps,
                                             List<Phase> before, Path dir, ResultsFile results, RunLog log, String affinity, Object config) {
        int k = steps.size() + 1;
        Profile.Rate profile = new Profile.Rate(rps, capacity.stepDuration(), capacity.inFlight(rps));
        String suffix = (experiment.repeat() > 1 ? ".r" + repeat : "") + ".step" + k;
        Map<String, Object> r = measure(target, scenario, new Step(profile, k == 1 ? experiment.warmup() : capacity.stepWarmup(), k == 1, suffix),
                before, dir, log);
        List<String> misses = new ArrayList<>(capacity.slo().misses(r));
        if (!RepeatSummary.steady(r)) {
            // Its percentiles may still be moving: a step that is not steady cannot show that the target meets the SLO.
            misses.add("not steady");
        }
        r.put("repeat", repeat);
        r.put("step", k);
        r.put("offered_rps", rps);
        r.put("slo_met", misses.isEmpty());
        r.put("slo_misses", misses);
        results.add(withTarget(r, target, affinity, config));
        steps.add(r);
        log.line(target.spec().name() + " " + scenario.name() + ": step " + k + " at " + rps + " rps: "
                + (misses.isEmpty() ? "meets the SLO" : "misses: " + String.join("; ", misses)));
        return r;
    }

    /** What every result records about the target process it measured. */
    private static Map<String, Object> withTarget(Map<String, Object> r, RunningTarget target, String affinity, Object config) {
        r.put("startup_ms", target.startupMillis());
        r.put("target_cpus", affinity);
        r.put("target_config", config);
        return r;
    }

    /** One point of the latency-vs-rate curve. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> capacityPoint(Map<String, Object> r) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("step", r.get("step"));
        p.put("offered_rps", r.get("offered_rps"));
        p.put("throughput_rps", r.get("throughput_rps"));
        Object latency = r.get("latency_ms");
        for (String q : List.of("p50", "p99", "p999")) {
            p.put(q, latency instanceof Map ? ((Map<String, Object>) latency).get(q) : null);
        }
        p.put("errors", r.get("errors") instanceof Map ? ((Map<String, Object>) r.get("errors")).get("total") : null);
        p.put("behind_schedule", r.get("behind_schedule"));
        p.put("steady", RepeatSummary.steady(r));
        p.put("slo_met", r.get("slo_met"));
        return p;
    }

    private Map<String, Object> measure(RunningTarget target, Scenario scenario, Step step, List<Phase> before, Path dir, RunLog log) {
        String name = target.spec().name();
        Profile profile = step.profile();
        LoadSpec spec = new LoadSpec(target.base(), scenario.path(), profile, cpus.driver().size(), REQUEST_TIMEOUT);
        int stubRestarts = downstream == null ? 0 : downstream.restarts();
        int dbRestarts = database == null ? 0 : database.restarts();
        try {
            log.line(name + " " + scenario.name() + ": warmup until steady (up to " + step.warmup().toSeconds() + " s)");
            long warmupFrom = System.currentTimeMillis();
            SteadySignals signals = new SteadySignals(sampler, canary);
            Warmup.Outcome warm;
            Measurement m;
            DriverCpu[] driverCpus = new DriverCpu[1];
            Cgroup.Usage[] groupAtStart = new Cgroup.Usage[1];
            Runnable measuring = () -> {
                log.line(name + " " + scenario.name() + ": measuring (" + profile.kind() + ")");
                driverCpus[0] = new DriverCpu(cpus.driver().size());
                groupAtStart[0] = target.cgroup() == null ? null : target.cgroup().usage();
            };
            try {
                // At most half the budget, so that the profile's own load always gets time to show it is steady.
                Warmup.Outcome compiled = step.compileFirst()
                        ? Warmup.compile(spec, target.cpus(), step.warmup().dividedBy(2), SteadyRule.DEFAULT, signals, progress(name, scenario, "warmup (compile)", log))
                        : Warmup.Outcome.NONE;
                if (!compiled.series().isEmpty()) {
                    log.line(name + " " + scenario.name() + ": compile stage " + (compiled.steady() ? "quiet" : "ended") + " after "
                            + compiled.series().size() + " s at " + compiled.compileUsers() + " users" + (compiled.check() == null ? "" : " (" + compiled.check().describe() + ")"));
                }
                Duration budget = step.warmup().minusMillis(compiled.millis());
                budget = budget.isNegative() ? Duration.ZERO : budget;
                if (Warmup.continuous(profile)) {
                    Warmup.Measured wm = Warmup.runThenMeasure(spec, budget, SteadyRule.DEFAULT, signals,
                            progress(name, scenario, "warmup", log), progress(name, scenario, "measure", log), measuring);
                    warm = wm.warmup().after(compiled);
                    m = wm.measurement();
                } else {
                    warm = Warmup.run(spec, budget, SteadyRule.DEFAULT, signals, progress(name, scenario, "warmup", log)).after(compiled);
                    measuring.run();
                    m = Reaper.stopping() ? null : LoadDriver.run(spec, progress(name, scenario, "measure", log));
                }
            } finally {
                if (driverCpus[0] != null) {
                    driverCpus[0].close();
                }
            }
            Cgroup.Usage groupAtEnd = target.cgroup() == null ? null : target.cgroup().usage();
            DriverCpu driverCpu = driverCpus[0];
            if (m == null || driverCpu == null || Reaper.stopping()) {
                throw new LabException("interrupted");
            }
            log.line(name + " " + scenario.name() + ": " + (warm.steady() ? "warmup was steady after " + warm.secondsToSteady() + " s"
                    : "NOT steady after " + warm.millis() / 1000 + " s" + (warm.check() == null ? "" : " (" + warm.check().describe() + ")")
                    + "; the measurement takes part in no verdict, consider a longer --warmup"));
            long measuredFrom = m.intervals().isEmpty() ? System.currentTimeMillis() - m.elapsed().toMillis() : m.intervals().get(0).getStartTimeStamp();
            Phase warmup = new Phase("warmup", warmupFrom, measuredFrom);
            String base = name + "." + scenario.name() + step.suffix();
            Phase measured = new Phase("measured", measuredFrom, measuredFrom + m.elapsed().toMillis());
            Map<String, Object> r = ScenarioResult.of(name, scenario.name(), m, profile instanceof Profile.Rate);
            String hlog = base + ".hlog";
            Hlog.write(dir.resolve(hlog), name + " " + scenario.name() + " " + scenario.path(), m.intervals());
            r.put("hlog", hlog);
            // The same benchmark for a Hyperfoil controller with agents on other machines (README: scaling out).
            String hyperfoil = base + ".hyperfoil.yaml";
            write(dir.resolve(hyperfoil), LoadDriver.toHyperfoilYaml(spec, "loomflux-" + base.replaceAll("[^A-Za-z0-9-]", "-")));
            r.put("hyperfoil_yaml", hyperfoil);
            try {
                addTelemetry(r, target, measured, base, profile, before, warmup, dir);
            } catch (RuntimeException e) {
                // Telemetry must never cost a finished measurement.
                r.put("telemetry_error", String.valueOf(e));
                log.line(name + " " + scenario.name() + ": telemetry incomplete: " + e);
            }
            String csv = base + ".series.csv";
            SeriesCsv.write(dir.resolve(csv), r);
            r.put("series_csv", csv);
            r.put("steady_state", steadyState(warm, step.warmup(), warmup, measured, r, Warmup.continuous(profile)));
            r.put("driver", driver(driverCpu));
            if (target.cgroup() != null && groupAtStart[0] != null) {
                r.put("limits", LimitsReport.of(target.cgroup().limits(), groupAtStart[0], groupAtEnd));
            }
            if (!target.process().isAlive()) {
                String cause = target.cgroup() == null ? target.process().exitDescription()
                        : target.cgroup().oomCause().map(c -> c + ": the kernel's OOM killer").orElse(target.process().exitDescription());
                return ScenarioResult.failed(name, scenario.name(), "target exited during the run (" + cause + "); last lines:\n"
                        + target.process().logTail(10));
            }
            if (scenario.needsDownstream() && downstream.restarts() != stubRestarts) {
                return ScenarioResult.failed(name, scenario.name(), "the downstream stub died during the warmup or measurement and was "
                        + "started again: the failures were the stub's, not the target's (run.log has when)");
            }
            if (scenario.needsDatabase() && database.restarts() != dbRestarts) {
                return ScenarioResult.failed(name, scenario.name(), "PostgreSQL died during the warmup or measurement and was "
                        + "started again: what the measurement saw of that (errors, a stall) was the database's, not the target's (run.log has when)");
            }
            if (m.responses() == 0) {
                // Not a sample of the target's speed: statistics over repeats must not average it in.
                return ScenarioResult.failed(name, scenario.name(), "no responses: all " + m.requests() + " requests failed ("
                        + m.errors().timeout() + " timeouts, " + m.errors().connect() + " connect errors)");
            }
            return r;
        } catch (LabException e) {
            log.line(name + " " + scenario.name() + ": failed: " + e.getMessage());
            return ScenarioResult.failed(name, scenario.name(), e.getMessage());
        }
    }

    /**
     * The target's resources per second and per phase, and its JVM internals over the measured
     * window from a JFR dump. Waits for the sampler's reading that covers the last second.
     */
    @SuppressWarnings("unchecked")
    private void addTelemetry(Map<String, Object> r, RunningTarget target, Phase measured, String base, Profile profile,
                              List<Phase> before, Phase warmup, Path dir) {
        long t0 = measured.fromMs();
        long t1 = measured.toMs();
        String jfr = base + ".jfr";
        String whyNot = target.process().isAlive()
                ? JfrDump.dump(settings.jdk(), target.process().pid(), dir.resolve(jfr))
                : "target exited before its JFR recording could be dumped";
        r.put("jfr", whyNot == null ? jfr : null);
        r.put("jvm", JvmSummary.of(dir.resolve(jfr), Instant.ofEpochMilli(t0), Instant.ofEpochMilli(t1), target.spec().virtualThreads(), whyNot));
        sleep(Duration.ofMillis(Math.max(0, t1 + ResourceSampler.PERIOD.toMillis() + 600 - System.currentTimeMillis())));
        ResourceReport.addToSeries(sampler, canary, (List<Map<String, Object>>) r.get("series"), t0);
        List<Phase> phases = new ArrayList<>(before);
        phases.add(warmup);
        phases.addAll(Phase.ofProfile(profile, t0, t1));
        r.put("phases", ResourceReport.phases(sampler, phases, t0));
    }

    private void watchSupport(Downstream stub, Database db) {
        sampler.watch(ResourceReport.TARGET, () -> targetPid.get() == 0 ? List.of() : List.of(targetPid.get()), true);
        sampler.watchTargetGroup(targetGroup::get);
        if (stub != null) {
            sampler.watch(ResourceReport.STUB, () -> List.of(stub.pid()));
        }
        if (db != null) {
            sampler.watch(ResourceReport.DB, db::pids);
        }
        sampler.start();
    }

    /**
     * How the warmup ended, the JIT's work before and during the measurement, and whether the
     * measured window drifted: a result is {@code steady} only when the rule held and it did not.
     */
    @SuppressWarnings("unchecked")
    private Map<String, Object> steadyState(Warmup.Outcome w, Duration budget, Phase warmup, Phase measured, Map<String, Object> r,
                                            boolean continuous) {
        List<Map<String, Object>> rows = (List<Map<String, Object>>) r.get("series");
        // Only a load that went on from warmup into the measurement can be held to the warmup's level.
        Drift drift = Drift.of(rows.stream().map(Runner::pointOf).toList(), continuous ? w.series() : List.of());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reached", w.steady());
        m.put("seconds", w.steady() ? w.secondsToSteady() : null);
        m.put("warmup_s", ScenarioResult.round(w.millis() / 1000.0));
        m.put("budget_s", ScenarioResult.round(budget.toMillis() / 1000.0));
        m.put("compile_stage_s", w.compileSeconds());
        m.put("compile_stage_users", w.compileSeconds() > 0 ? w.compileUsers() : null);
        m.put("rule", w.check() == null ? null : rule(w.check()));
        Map<String, Object> jit = new LinkedHashMap<>();
        jit.put("warmup", jit(ResourceReport.jitBetween(sampler, warmup.fromMs(), warmup.toMs())));
        jit.put("measured", jit(ResourceReport.jitBetween(sampler, measured.fromMs(), measured.toMs())));
        m.put("jit", jit);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("drifting", drift.drifting());
        d.put("rps_change_pct", ScenarioResult.finite(drift.rpsChangePct()));
        d.put("p50_change_pct", ScenarioResult.finite(drift.p50ChangePct()));
        d.put("machine_change_pct", drift.machineChangePct() == null ? null : ScenarioResult.finite(drift.machineChangePct()));
        d.put("from_warmup_pct", ScenarioResult.finite(drift.fromWarmupPct()));
        d.put("note", drift.note());
        m.put("drift", d);
        m.put("steady", w.steady() && !drift.drifting());
        List<Map<String, Object>> series = new ArrayList<>();
        for (int t = 0; t < w.series().size(); t++) {
            Point p = w.series().get(t);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("t", t);
            row.put("rps", ScenarioResult.round(p.rps()));
            row.put("p50", ScenarioResult.finite(p.p50Ms()));
            row.put("jit_ms", p.jitMs() == null ? null : ScenarioResult.round(p.jitMs()));
            row.put("jit_cpu_ms", p.jitCpuMs() == null ? null : ScenarioResult.round(p.jitCpuMs()));
            row.put("canary_us", p.canaryUs() == null ? null : ScenarioResult.round(p.canaryUs()));
            series.add(row);
        }
        m.put("series", series);
        return m;
    }

    private static Point pointOf(Map<String, Object> row) {
        return new Point(number(row.get("rps")), number(row.get("p50")),
                nullable(row.get("jit_ms")), nullable(row.get("jit_cpu_ms")), nullable(row.get("canary_us")));
    }

    private static Map<String, Object> rule(SteadyRule.Check c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("window_s", c.window());
        m.put("rps_change_pct", ScenarioResult.finite(c.rpsChangePct()));
        m.put("rps_trend_p", ScenarioResult.finite(c.rpsTrendP()));
        m.put("rps_cv_pct", ScenarioResult.finite(c.rpsCvPct()));
        m.put("p50_change_pct", ScenarioResult.finite(c.p50ChangePct()));
        m.put("jit_pct", c.jitPct() == null ? null : ScenarioResult.finite(c.jitPct()));
        m.put("jit_cpu_pct", c.jitCpuPct() == null ? null : ScenarioResult.finite(c.jitCpuPct()));
        m.put("machine_change_pct", c.machineChangePct() == null ? null : ScenarioResult.finite(c.machineChangePct()));
        m.put("reasons", c.reasons());
        return m;
    }

    private static Map<String, Object> jit(Reading.Jit j) {
        if (j == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("compiles", j.compiles());
        m.put("compile_ms", ScenarioResult.round(j.compileMs()));
        m.put("compiler_cpu_ms", j.compilerCpuMs() < 0 ? null : ScenarioResult.round(j.compilerCpuMs()));
        return m;
    }

    private static Double nullable(Object o) {
        return o == null ? null : number(o);
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static Map<String, Object> driver(DriverCpu cpu) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpus", cpu.cpus());
        m.put("cpu_pct_mean", ScenarioResult.round(cpu.mean()));
        m.put("cpu_pct_max", ScenarioResult.round(cpu.max()));
        m.put("saturated", cpu.saturated());
        m.put("trustworthy", !cpu.saturated());
        return m;
    }

    private SecondListener progress(String target, Scenario scenario, String phase, RunLog log) {
        // The run's progress first: a narrow terminal cuts the live line's end, not its ETA.
        return (Second s) -> log.status(String.format("  %s%s %s %s t=%ds users=%d rps=%.0f p99=%s errors=%d",
                progress == null ? "" : progress.status() + " | ", target, scenario.name(), phase, s.t(), s.users(), s.rps(),
                Double.isNaN(s.p99Ms()) ? "-" : String.format("%.1fms", s.p99Ms()), s.errors()));
    }

    private void unitStarted() {
        if (progress != null) {
            progress.unitStarted();
        }
    }

    private void unitDone() {
        if (progress != null) {
            progress.unitDone();
        }
    }

    private static Object targetConfig(RunningTarget target) {
        try {
            return JSON.readValue(Http.get(target.base().resolve("/config"), Duration.ofSeconds(10)).body(), Map.class);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
