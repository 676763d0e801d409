package dev.loomflux.lab.run;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.db.DatabaseSource;
import dev.loomflux.lab.driver.DriverLog;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.procedure.Progress;
import dev.loomflux.lab.procedure.SweepCells;
import dev.loomflux.lab.result.Summary;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Sweep;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.OpenFiles;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.process.RunProcesses;
import dev.loomflux.lab.report.Report;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ProfilerCost;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.sut.Downstream;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import dev.loomflux.lab.telemetry.CpuCanary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One run of an experiment: what every run does around its design (the checks, the results directory, pinning,
 * run.log, PostgreSQL and the stub, the resource sampler and CPU canary, Ctrl-C), the design itself
 * ({@link SequentialRun} or {@link PairedRun}) with the command's {@link Procedure}, then the closing summary
 * and the reports.
 */
public final class Runner {
    /**
     * What a command chooses for a run besides its experiment.
     *
     * @param settings       how the targets' JVMs are launched
     * @param cpus           where the targets, the driver and the support processes run
     * @param databaseSource PostgreSQL, started for the run or the user's own, for the scenarios that need it
     * @param driver         the load driver
     */
    /** @param categories the CPU profile's categories: the lab's table, after the user's rules when given */
    public record Setup(LaunchSettings settings, CpuPlan cpus, DatabaseSource databaseSource, LoadDriver driver, LabProcesses processes,
                        CategoryRules categories) {
    }

    private final Home home;
    private final Experiment experiment;
    private final Experiment declared;
    private final Procedure.Maker maker;
    private final Setup setup;
    private final Stop stop;
    private final PrintWriter console;
    private volatile Database database;
    /** Null for a capacity search or a profile that ends by a request count: their length is not known ahead. */
    private final Progress progress;

    /**
     * @param maker what to do on each target x scenario: measure its profile, a sweep's cells, or search its capacity
     * @param stop whether the run was told to stop (the command's {@code LabProcesses::stopping})
     */
    public Runner(Home home, Experiment experiment, Procedure.Maker maker, Setup setup, Stop stop, PrintWriter console) {
        this.home = home;
        this.declared = experiment;
        // A sweep's target axes make a target JVM per value: the run starts those variants in turn.
        this.experiment = experiment.sweep() == null ? experiment : experiment.toBuilder().targets(SweepCells.targets(experiment)).build();
        this.maker = maker;
        this.setup = setup;
        this.stop = stop;
        this.console = console;
        this.progress = maker.timed() ? Progress.of(this.experiment) : null;
    }

    /** @return the run's record as results.json holds it */
    public RunRecord run() {
        DesignRun design = experiment.inRounds() ? new PairedRun(experiment, Pause::sleep) : new SequentialRun(experiment, Pause::sleep);
        experiment.requireFreshJvms();
        OpenFiles.require(peakUsers(), experiment.connectedJvms());
        experiment.targets().forEach(t -> t.requireBuilt(home));
        design.requireMemory(setup.settings());
        List<String> dead = new ArrayList<>();
        RunProcesses.cleanUp(home.results(), dead::add); // a lab that was killed may have left servers on these CPUs
        Path dir = home.newRunDir(experiment.name());
        String runId = dir.getFileName().toString();
        setup.processes().describeMachine("run " + runId);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new LabException("cannot create the run's results directory " + dir + ": " + whyNotCreated(dir, e), e);
        }
        try {
            setup.categories().keepIn(dir);
        } catch (IOException e) {
            throw new LabException("cannot write " + dir.resolve(CategoryRules.RUN_COPY) + ": " + e.getMessage(), e);
        }
        CpuPlan cpus = setup.cpus();
        // The lab JVM is the driver; pin it before anything else starts so its threads inherit the set.
        long self = ProcessHandle.current().pid();
        String before = CpuPlan.affinityOf(self);
        cpus.move(self, cpus.driver());
        try (RunProcesses started = setup.processes().openRun(dir);
             RunLog log = new RunLog(console, dir.resolve("run.log"), System.console() != null); DriverLog driverLog = new DriverLog(dir.resolve("driver.log"));
             ResourceSampler sampler = new ResourceSampler();
             CpuCanary canary = new CpuCanary(tid -> cpus.moveThread(tid, cpus.target()))) {
            RunContext run = new RunContext(dir, log, new RunContext.Machine(setup.settings(), cpus, sampler, canary, setup.categories()), setup.driver(), stop,
                    RunContext.Support.NONE);
            dead.forEach(log::line);
            log.line("run " + runId + ": " + experiment.targets().size() + " target(s) x " + experiment.scenarios().size()
                    + " scenario(s), profile " + experiment.profile().kind()
                    + (experiment.profile().think().none() ? "" : " with think " + experiment.profile().think()) + "; " + cpus.note()
                    + ": target CPUs " + CpuPlan.list(cpus.target()) + ", driver " + CpuPlan.list(cpus.driver()) + ", support " + CpuPlan.list(cpus.support()));
            if (progress != null) {
                log.line("estimate: " + progress.estimate());
            }
            LaunchSettings settings = setup.settings();
            List<String> own = experiment.targets().stream().filter(t -> t.limits().any())
                    .map(t -> t.name() + ": " + t.limits().over(settings.limits()).describe()).toList();
            if (settings.limits().any() || !own.isEmpty()) {
                log.line(Cgroup.unsupported().map(reason -> "limits NOT applied, the targets run unlimited: " + reason)
                        .orElse((settings.limits().any() ? "limits for every target: " + settings.limits().describe() : "")
                                + (own.isEmpty() ? "" : (settings.limits().any() ? "; " : "") + "limits per target: " + String.join("; ", own))));
            }
            // Before any target starts, on their CPUs: what async-profiler costs on this host (docs/telemetry.md).
            List<ProfilerCost> costs = ProfilerCheck.atStart(settings, cpus, setup.processes(), dir, log::line, stop);
            return runIn(run, runId, design, costs);
        } finally {
            cpus.restore(self, before);
        }
    }

    /** The run once its directory, log and pinning are in place: support processes up, the design run, then the summary and reports. */
    private RunRecord runIn(RunContext bare, String runId, DesignRun design, List<ProfilerCost> costs) {
        Log log = bare.log();
        CpuPlan cpus = bare.cpus();
        try (Database db = experiment.needsDatabase() ? setup.databaseSource().open(bare.dir(), line -> {
                 log.line(line);
                 database.pids().forEach(pid -> cpus.move(pid, cpus.support()));
             }) : null;
             Downstream stub = experiment.needsDownstream() ? Downstream.start(setup.processes(), home, setup.settings(), cpus.supportPlacement(), bare.dir(), log::line) : null) {
            database = db;
            if (db != null) {
                // Started by the driver-pinned lab, PostgreSQL inherited the driver's CPUs; its later backends inherit these.
                db.pids().forEach(pid -> cpus.move(pid, cpus.support()));
                log.line("database: " + db.description());
            }
            RunContext run = bare.with(new RunContext.Support(db, stub));
            JvmStarter starter = new JvmStarter(home, setup.processes(), run, new Measurer(run, () -> progress == null ? "" : progress.status() + " | "), experiment);
            watch(run, starter);
            Environment env = Described.environment(home, setup.settings().jdk(), cpus, db == null ? null : db.description()).withProfilerCosts(costs);
            ResultsFile results = new ResultsFile(run.dir(), runId, env, Described.experiment(experiment, setup.settings(), setup.driver().name()));
            // The declared experiment: a sweep's cells are its own business, its variants of targets the run's.
            Procedure procedure = maker.create(declared, run, results, progress);
            Session session = new Session(run, starter, procedure, results, progress);
            AtomicBoolean saidInterrupted = new AtomicBoolean();
            // Whichever comes first, the Ctrl-C hook or the run's own thread seeing the stop, writes and says it once; the
            // hook waits for the other (the lock), since the JVM halts as soon as the hook returns.
            Runnable interrupted = () -> {
                setup.driver().cancel();
                synchronized (saidInterrupted) {
                    if (!saidInterrupted.getAndSet(true)) {
                        results.finish("interrupted");
                        log.line("interrupted: " + results.results().size() + " finished result(s) kept in " + results.path());
                    }
                }
            };
            AutoCloseable onInterrupt = interrupted::run;
            setup.processes().register(onInterrupt);
            design.run(session);
            if (stop.requested()) {
                interrupted.run();
                return results.snapshot();
            }
            setup.processes().unregister(onInterrupt);
            design.compare(session);
            procedure.summarize();
            results.finish("completed");
            Summary.print(results.results(), log::line);
            procedure.conclude(log::line);
            design.conclude(session);
            log.line(String.format("resource sampler: %.0f us CPU per 1 s tick", run.sampler().cpuMicrosPerTick()));
            report(run.dir(), results.snapshot(), log, procedure.answers());
            log.line("results: " + results.path());
            return results.snapshot();
        }
    }

    /** The most users any cell offers: a sweep's users or rate axis sets them per cell. */
    private int peakUsers() {
        Sweep sweep = declared.sweep();
        return sweep == null ? experiment.profile().peakUsers()
                : sweep.cells().stream().mapToInt(c -> sweep.profile(experiment.profile(), c).peakUsers()).max().orElse(0);
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

    /** Rendered from the record in memory; a report problem must not hide where the results are. */
    private static void report(Path dir, RunRecord record, Log log, boolean answers) {
        try {
            Path html = Report.write(dir, record);
            if (answers) {
                Report.headlines(record).forEach(h -> log.line("answer: " + h));
            }
            log.line("report: " + html.resolveSibling("report.md"));
            log.line("report: " + html + " (open it in a browser; works offline)");
        } catch (RuntimeException e) {
            log.line("report not written: " + e.getMessage() + " (retry with ./lab report " + dir + ")");
        }
    }

    /** The run's sampler: the live target (the sequential design's; none in rounds), the stub and the database. */
    private static void watch(RunContext run, JvmStarter starter) {
        ResourceSampler sampler = run.sampler();
        sampler.watch(ResourceReport.TARGET, starter::watchedPids, true);
        sampler.watchTargetGroup(starter::watchedGroup);
        if (run.stub() != null) {
            sampler.watch(ResourceReport.STUB, () -> List.of(run.stub().pid()));
        }
        if (run.database() != null) {
            sampler.watch(ResourceReport.DB, run.database()::pids);
        }
        sampler.start();
    }
}
