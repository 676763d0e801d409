package dev.loomflux.lab.run;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.db.DatabaseSource;
import dev.loomflux.lab.driver.DriverLog;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.procedure.InRounds;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.procedure.Progress;
import dev.loomflux.lab.procedure.SweepCells;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.verdict.Comparisons;
import dev.loomflux.lab.result.Summary;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.experiment.Sweep;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.OpenFiles;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.process.RunProcesses;
import dev.loomflux.lab.report.Report;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.sut.Downstream;
import dev.loomflux.lab.sut.Http;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.telemetry.Phase;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import dev.loomflux.lab.telemetry.CpuCanary;
import dev.loomflux.targets.TargetConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of an experiment: the session around its targets (results directory, pinning, run.log,
 * PostgreSQL and the stub, the resource sampler and CPU canary, Ctrl-C), each target started in turn
 * (a fresh JVM per repeat, idle a few seconds), the {@link Procedure} for each of its scenarios (measure the
 * profile, or search capacity), then the closing summary and the reports. One target is alive at a time.
 */
public final class Runner {
    /** What a target JVM holds beside its heap, rounded up from the 150-250 MB measured here. */
    private static final long NON_HEAP_BYTES = 256L << 20;
    private final Home home;
    private final Experiment experiment;
    private final Experiment declared;
    private final LaunchSettings settings;
    private final CpuPlan cpus;
    private final DatabaseSource databaseSource;
    private final LoadDriver driver;
    private final LabProcesses processes;
    private final Stop stop;
    private final PrintWriter console;
    private final ResourceSampler sampler = new ResourceSampler();
    private CpuCanary canary;
    private final Procedure.Kind kind;
    private volatile Database database;
    /** Null for a capacity search or a profile that ends by a request count: their length is not known ahead. */
    private final Progress progress;
    /** The live target's pid for the sampler; 0 between targets. */
    private final AtomicLong targetPid = new AtomicLong();
    private final AtomicReference<Cgroup> targetGroup = new AtomicReference<>();

    /**
     * @param kind      what to do on each target x scenario: measure its profile, a sweep's cells, or search its capacity
     * @param processes what the lab owns: the machine, the run's record, what the run starts
     * @param stop      whether the run was told to stop (the command's {@code LabProcesses::stopping})
     */
    public Runner(Home home, Experiment experiment, LaunchSettings settings, CpuPlan cpus, DatabaseSource databaseSource, LoadDriver driver,
                  Procedure.Kind kind, LabProcesses processes, Stop stop, PrintWriter console) {
        this.driver = driver;
        this.processes = processes;
        this.stop = stop;
        this.kind = kind;
        this.home = home;
        this.declared = experiment;
        // A sweep's target axes make a target JVM per value: the run starts those variants in turn.
        this.experiment = experiment.sweep() == null ? experiment : experiment.withTargets(SweepCells.targets(experiment));
        this.settings = settings;
        this.cpus = cpus;
        this.databaseSource = databaseSource;
        this.console = console;
        this.progress = kind.timed() ? Progress.of(this.experiment) : null;
    }

    /** @return the results file */
    public ResultsFile run() {
        OpenFiles.require(peakUsers(), experiment.inRounds() ? residentJvms() : 1);
        experiment.targets().forEach(t -> t.requireBuilt(home));
        if (experiment.inRounds()) {
            requireMemoryForAll();
        }
        List<String> dead = new ArrayList<>();
        RunProcesses.cleanUp(home.results(), dead::add); // a lab that was killed may have left servers on these CPUs
        Path dir = home.newRunDir(experiment.name());
        String runId = dir.getFileName().toString();
        processes.describeMachine("run " + runId);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new LabException("cannot create the run's results directory " + dir + ": " + whyNotCreated(dir, e), e);
        }
        // The lab JVM is the driver; pin it before anything else starts so its threads inherit the set.
        long self = ProcessHandle.current().pid();
        String before = CpuPlan.affinityOf(self);
        cpus.move(self, cpus.driver());
        try (RunProcesses started = processes.openRun(dir);
             RunLog log = new RunLog(console, dir.resolve("run.log"), System.console() != null); DriverLog driverLog = new DriverLog(dir.resolve("driver.log")); sampler;
             CpuCanary c = new CpuCanary(tid -> cpus.moveThread(tid, cpus.target()))) {
            canary = c;
            dead.forEach(log::line);
            log.line("run " + runId + ": " + experiment.targets().size() + " target(s) x " + experiment.scenarios().size()
                    + " scenario(s), profile " + experiment.profile().kind()
                    + (experiment.profile().think().none() ? "" : " with think " + experiment.profile().think()) + "; " + cpus.note()
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
             Downstream stub = experiment.needsDownstream() ? Downstream.start(processes, home, settings, cpus.supportPlacement(), dir, log::line) : null) {
            database = db;
            if (db != null) {
                // Started by the driver-pinned lab, PostgreSQL inherited the driver's CPUs; its later backends inherit these.
                db.pids().forEach(pid -> cpus.move(pid, cpus.support()));
                log.line("database: " + db.description());
            }
            URI stubUri = stub == null ? URI.create("http://127.0.0.1:9") : stub.base();
            watchSupport(stub, db);
            Environment env = Described.environment(home, settings.jdk(), cpus, db == null ? null : db.description());
            ResultsFile results = new ResultsFile(dir, runId, env, Described.experiment(experiment, settings, driver.name()));
            Measurer measurer = new Measurer(settings, cpus, sampler, canary, stub, db, dir, log, () -> progress == null ? "" : progress.status() + " | ",
                    driver, stop);
            // The declared experiment: a sweep's cells are its own business, its variants of targets the run's.
            Procedure procedure = kind.create(declared, measurer, results, log, progress);
            AtomicBoolean saidInterrupted = new AtomicBoolean();
            // Whichever comes first, the Ctrl-C hook or the run's own thread seeing the stop, writes and says it once; the
            // hook waits for the other (the lock), since the JVM halts as soon as the hook returns.
            Runnable interrupted = () -> {
                driver.cancel();
                synchronized (saidInterrupted) {
                    if (!saidInterrupted.getAndSet(true)) {
                        results.finish("interrupted");
                        log.line("interrupted: " + results.results().size() + " finished result(s) kept in " + results.path());
                    }
                }
            };
            AutoCloseable onInterrupt = interrupted::run;
            processes.register(onInterrupt);
            if (experiment.inRounds()) {
                runSets(stubUri, db, dir, results, log, new InRounds(experiment, measurer, driver, results, log, dir, cpus.driver().size(), progress), runId);
            } else {
                if (experiment.design().paired()) {
                    log.line("measured one target after another: interleaved rounds need a steady load (a fixed or rate profile, no sweep)");
                }
                new Turns(experiment, stop, Runner::sleep, log::line).run(
                        (target, repeat, left) -> visit(target, repeat, stubUri, db, dir, results, log, procedure, left),
                        () -> results.results().size(),
                        (target, scenario, repeat, why) -> addFailed(results, target.name(), scenario.name(), repeat, why));
            }
            if (stop.requested()) {
                interrupted.run();
                return results;
            }
            processes.unregister(onInterrupt);
            if (experiment.inRounds()) {
                results.comparisons(Comparisons.of(results.blocks(), experiment.targets().stream().map(TargetSpec::name).toList(), driver.latencyStepMs()));
                if (procedure instanceof SweepCells cells) {
                    cells.fromRounds(results.snapshot().results(), results.snapshot().comparisons());
                }
            }
            procedure.summarize();
            results.finish("completed");
            Summary.print(results.results(), log::line);
            procedure.conclude(log::line);
            if (experiment.inRounds()) {
                results.snapshot().comparisons().forEach(c -> log.line("paired " + c.where() + ": " + c.sentence()));
            }
            log.line(String.format("resource sampler: %.0f us CPU per 1 s tick", sampler.cpuMicrosPerTick()));
            report(dir, log, procedure.answers());
            log.line("results: " + results.path());
            return results;
        }
    }

    /**
     * The paired design: every JVM of every set started up front, side by side on the target's and the
     * driver's CPUs, a few at a time (46 s one after another on the target CPU for the default's three, here), then moved to
     * the target CPUs, idle together, then per scenario warmed in turn and measured in the same rounds.
     */
    private void runSets(URI stub, Database db, Path dir, ResultsFile results, RunLog log, InRounds rounds, String runId) {
        List<TargetVisit> visits = new ArrayList<>();
        try {
            List<CompletableFuture<TargetVisit>> starting = new ArrayList<>();
            // Starting is CPU-bound: on 2 CPUs one JVM alone was ready in 10.3 s, two, three and four at once all
            // in 21, 33 and 36 s, six in 59-66 s. So starting every JVM at once saves nothing, and eight at once
            // (four targets, two sets) ran every one past the 90 s readiness limit. Twice the CPUs at a time
            // keeps each start near 40 s, the whole no longer.
            int cpuCount = cpus.applied() ? cpus.startCpus().size() : Runtime.getRuntime().availableProcessors();
            ExecutorService starter = Executors.newFixedThreadPool(2 * cpuCount);
            try {
                for (int set = 1; set <= experiment.repeat(); set++) {
                    for (TargetSpec spec : experiment.targets()) {
                        int s = set;
                        starting.add(CompletableFuture.supplyAsync(() -> startForRounds(spec, s, stub, db, dir, results, log), starter));
                    }
                }
                RuntimeException failed = null;
                for (CompletableFuture<TargetVisit> f : starting) {
                    try {
                        TargetVisit v = f.join();
                        if (v != null) {
                            visits.add(v);
                        }
                    } catch (CompletionException e) {
                        // The others are still collected, so that the finally below stops them.
                        failed = failed != null ? failed : e.getCause() instanceof RuntimeException r ? r : e;
                    }
                }
                if (failed != null) {
                    throw failed;
                }
            } finally {
                starter.shutdown();
            }
            if (stop.requested()) {
                return;
            }
            sleep(experiment.idle());
            Sweep sweep = declared.sweep();
            for (Scenario base : experiment.scenarios()) {
                List<Map<String, Integer>> cells = sweep == null ? List.of(Map.of()) : sweep.cells();
                for (int i = 0; i < cells.size(); i++) {
                    if (stop.requested()) {
                        return;
                    }
                    Map<String, Integer> cell = cells.get(i);
                    Scenario scenario = sweep == null ? base : sweep.scenario(base, cell);
                    // A sweep's later cells find the JVMs warm: they only settle at their own load, as a sequential sweep's do.
                    Measurer.Load load = sweep == null ? new Measurer.Load(experiment.profile(), experiment.warmup(), true, "")
                            : new Measurer.Load(sweep.profile(experiment.profile(), cell), i == 0 ? experiment.warmup() : sweep.cellWarmup(), i == 0,
                            SweepCells.cellSuffix(cell, scenario));
                    rounds.run(visits, scenario, load, sweep == null ? null : cell,
                            runId.hashCode() * 31L + scenario.name().hashCode() + cell.hashCode());
                }
            }
        } finally {
            for (TargetVisit v : visits) {
                v.target().close();
            }
        }
    }

    /** Starts one target of a set and moves it to the target CPUs; null when it did not start (its results say why). */
    private TargetVisit startForRounds(TargetSpec spec, int set, URI stub, Database db, Path dir, ResultsFile results, RunLog log) {
        if (stop.requested()) {
            return null;
        }
        long[] launchedAt = new long[1];
        try {
            RunningTarget target = RunningTarget.start(processes, home, spec, settings, cpus.startPlacement(), stub, db, dir, p -> launchedAt[0] = System.currentTimeMillis());
            cpus.move(target.process().pid(), cpus.target());
            String affinity = CpuPlan.affinityOf(target.process().pid());
            log.line(spec.name() + ": ready in " + target.startupMillis() + " ms (started beside the others; pid " + target.process().pid() + ", now on CPUs "
                    + affinity + ")" + (experiment.repeat() > 1 ? ", set " + set + " of " + experiment.repeat() : ""));
            target.aotCacheProblem().ifPresent(p -> log.line(spec.name() + ": started without its --aot-cache: " + p));
            stopLoadWhenItDies(target, experiment.repeat() > 1 ? spec.name() + "#" + set : spec.name(), log);
            long ready = System.currentTimeMillis();
            return new TargetVisit(target, set, List.of(new Phase("startup", launchedAt[0], ready)), affinity,
                    spec.command() == null ? targetConfig(target) : null);
        } catch (LabException e) {
            if (!stop.requested()) {
                log.line(spec.name() + ": did not start: " + e.getMessage());
                experiment.scenarios().forEach(s -> results.add(Result.failed(spec.name(), s.name(), e.getMessage()).withVisit(set, null, null, null)));
            }
            return null;
        }
    }

    /** The paired design's JVMs, all resident and connected at once: every target in every set. */
    private int residentJvms() {
        return experiment.targets().size() * experiment.repeat();
    }

    /** The most users any cell offers: a sweep's users or rate axis sets them per cell. */
    private int peakUsers() {
        Sweep sweep = declared.sweep();
        return sweep == null ? experiment.profile().peakUsers()
                : sweep.cells().stream().mapToInt(c -> sweep.profile(experiment.profile(), c).peakUsers()).max().orElse(0);
    }

    /**
     * The paired design keeps every target resident at once: each needs its heap and, measured here,
     * 150-250 MB beside it (metaspace, code cache, thread stacks, Netty's direct buffers).
     */
    private void requireMemoryForAll() {
        long perTarget = ResourceLimits.parseMemory(settings.heap(), "--heap") + NON_HEAP_BYTES;
        long needed = perTarget * residentJvms();
        long available = new oshi.SystemInfo().getHardware().getMemory().getAvailable();
        if (needed > available) {
            throw new UsageException(String.format("--design paired keeps all %d target JVMs resident: about %d MB (heap %s + %d MB each) where %d MB are "
                            + "available; use a smaller --heap, fewer --targets, a smaller --repeat or --design sequential",
                    residentJvms(), needed >> 20,
                    settings.heap(), NON_HEAP_BYTES >> 20, available >> 20));
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

    /** A target that dies under load: its load ends within a second instead of hammering a closed port until the profile ends. */
    private void stopLoadWhenItDies(RunningTarget target, String name, RunLog log) {
        target.process().onExit().thenRun(() -> {
            if (!target.process().stoppedByLab()) {
                log.line(name + ": " + target.exitHeadline() + "; stopping its load");
                driver.cancel();
            }
        });
    }

    /**
     * Starts the target and runs the procedure on the scenarios left, removing each one done.
     *
     * @return how the JVM exited when it died with scenarios left; null when none is left, on Ctrl-C, or when it did not start
     */
    private String visit(TargetSpec spec, int repeat, URI stub, Database db, Path dir, ResultsFile results, RunLog log, Procedure procedure,
                         List<Scenario> left) {
        RunningTarget target;
        long[] launchedAt = new long[1];
        try {
            target = RunningTarget.start(processes, home, spec, settings, cpus.targetPlacement(), stub, db, dir, p -> {
                launchedAt[0] = System.currentTimeMillis();
                targetPid.set(p.pid());
            });
        } catch (LabException e) {
            if (!stop.requested()) {
                log.line(spec.name() + ": did not start: " + e.getMessage());
                left.forEach(s -> addFailed(results, spec.name(), s.name(), repeat, e.getMessage()));
                left.clear();
            }
            return null;
        }
        stopLoadWhenItDies(target, spec.name(), log);
        try (target) {
            targetGroup.set(target.cgroup());
            String affinity = CpuPlan.affinityOf(target.process().pid());
            log.line(spec.name() + ": ready in " + target.startupMillis() + " ms (pid " + target.process().pid() + ", CPUs " + affinity + ")");
            target.aotCacheProblem().ifPresent(p -> log.line(spec.name() + ": started without its --aot-cache: " + p));
            TargetConfig config = spec.command() == null ? targetConfig(target) : null;
            long ready = System.currentTimeMillis();
            sleep(experiment.idle());
            TargetVisit visit = new TargetVisit(target, repeat,
                    List.of(new Phase("startup", launchedAt[0], ready), new Phase("idle", ready, System.currentTimeMillis())), affinity, config);
            while (!left.isEmpty() && !stop.requested()) {
                if (!target.process().isAlive() || !procedure.run(visit, left.get(0))) {
                    return target.process().exitDescription();
                }
                left.remove(0);
            }
            return null;
        } finally {
            targetPid.set(0);
            targetGroup.set(null);
        }
    }

    /** A target x scenario that has no measurement, with why; it counts as done for the run's progress. */
    private void addFailed(ResultsFile results, String target, String scenario, int repeat, String why) {
        results.add(Result.failed(target, scenario, why).withVisit(repeat, null, null, null));
        if (progress != null) {
            progress.unitDone();
        }
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

    private static TargetConfig targetConfig(RunningTarget target) {
        try {
            return Json.read(Http.get(target.base().resolve("/config"), Duration.ofSeconds(10)).body(), TargetConfig.class);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
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
