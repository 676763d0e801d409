package dev.loomflux.lab.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomflux.lab.Home;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.cli.DatabaseOptions;
import dev.loomflux.lab.db.Database;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.process.Reaper;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.Hlog;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.ScenarioResult;
import dev.loomflux.lab.result.SeriesCsv;
import dev.loomflux.lab.target.Downstream;
import dev.loomflux.lab.target.Http;
import dev.loomflux.lab.target.LaunchSettings;
import dev.loomflux.lab.target.RunningTarget;
import dev.loomflux.lab.target.TargetSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs an experiment: per target, start it, wait until ready, and per scenario warm up and
 * measure; then stop it and cool down before the next. One target is alive at a time.
 */
public final class Runner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final Home home;
    private final Experiment experiment;
    private final LaunchSettings settings;
    private final CpuPlan cpus;
    private final DatabaseOptions dbOptions;
    private final PrintWriter console;

    public Runner(Home home, Experiment experiment, LaunchSettings settings, CpuPlan cpus, DatabaseOptions dbOptions, PrintWriter console) {
        this.home = home;
        this.experiment = experiment;
        this.settings = settings;
        this.cpus = cpus;
        this.dbOptions = dbOptions;
        this.console = console;
    }

    /** @return the results file */
    public ResultsFile run() {
        experiment.targets().forEach(t -> home.jar(t.app()));
        Path dir = home.newRunDir(experiment.name());
        String runId = dir.getFileName().toString();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new LabException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        // The lab JVM is the driver; pin it before anything else starts so its threads inherit the set.
        long self = ProcessHandle.current().pid();
        String before = CpuPlan.affinityOf(self);
        cpus.move(self, cpus.driver());
        try (RunLog log = new RunLog(console, dir.resolve("run.log"))) {
            log.line("run " + runId + ": " + experiment.targets().size() + " target(s) x " + experiment.scenarios().size()
                    + " scenario(s), profile " + experiment.profile().kind() + "; " + cpus.note()
                    + " (target " + CpuPlan.list(cpus.target()) + ", driver " + CpuPlan.list(cpus.driver()) + ", support " + CpuPlan.list(cpus.support()) + ")");
            return runIn(dir, runId, log);
        } finally {
            cpus.restore(self, before);
        }
    }

    private ResultsFile runIn(Path dir, String runId, RunLog log) {
        try (Database db = experiment.needsDatabase() ? dbOptions.open(dir.resolve("postgres")) : null;
             Downstream stub = experiment.needsDownstream() ? Downstream.start(home, settings, cpus.supportPlacement(), dir) : null) {
            if (db != null) {
                pinDatabase();
                log.line("database: " + db.description());
            }
            URI stubUri = stub == null ? URI.create("http://127.0.0.1:9") : stub.base();
            Map<String, Object> env = Environment.describe(home, settings.jdk(), cpus, db == null ? null : db.description());
            ResultsFile results = new ResultsFile(dir, runId, env, ExperimentDescription.of(experiment, settings));
            AutoCloseable onInterrupt = () -> {
                LoadDriver.cancelAll();
                results.finish("interrupted");
            };
            Reaper.register(onInterrupt);
            for (int i = 0; i < experiment.targets().size() && !Reaper.stopping(); i++) {
                if (i > 0 && !experiment.cooldown().isZero()) {
                    log.line("cooldown " + experiment.cooldown().toSeconds() + " s");
                    sleep(experiment.cooldown());
                }
                runTarget(experiment.targets().get(i), stubUri, db, dir, results, log);
            }
            Reaper.unregister(onInterrupt);
            results.finish(Reaper.stopping() ? "interrupted" : "completed");
            Summary.print(results.results(), log::line);
            log.line("results: " + results.path());
            return results;
        }
    }

    private void runTarget(TargetSpec spec, URI stub, Database db, Path dir, ResultsFile results, RunLog log) {
        RunningTarget target;
        try {
            target = RunningTarget.start(home, spec, settings, cpus.targetPlacement(), stub, db, dir);
        } catch (LabException e) {
            if (Reaper.stopping()) {
                return;
            }
            log.line(spec.name() + ": did not start: " + e.getMessage());
            for (Scenario s : experiment.scenarios()) {
                results.add(ScenarioResult.failed(spec.name(), s.name(), e.getMessage()));
            }
            return;
        }
        try (target) {
            String affinity = CpuPlan.affinityOf(target.process().pid());
            log.line(spec.name() + ": ready in " + target.startupMillis() + " ms (pid " + target.process().pid() + ", CPUs " + affinity + ")");
            Object config = targetConfig(target);
            for (Scenario scenario : experiment.scenarios()) {
                if (Reaper.stopping()) {
                    return;
                }
                Map<String, Object> r = measure(target, scenario, dir, log);
                r.put("startup_ms", target.startupMillis());
                r.put("target_cpus", affinity);
                r.put("target_config", config);
                results.add(r);
            }
        }
    }

    private Map<String, Object> measure(RunningTarget target, Scenario scenario, Path dir, RunLog log) {
        String name = target.spec().name();
        Profile profile = experiment.profile();
        LoadSpec spec = new LoadSpec(target.base(), scenario.path(), profile, cpus.driver().size(), REQUEST_TIMEOUT);
        try {
            log.line(name + " " + scenario.name() + ": warmup (up to " + experiment.warmup().toSeconds() + " s)");
            Warmup.Outcome warm = Warmup.run(spec, experiment.warmup(), progress(name, scenario, "warmup", log));
            if (!warm.stable() && !experiment.warmup().isZero()) {
                log.line(name + " " + scenario.name() + ": WARNING throughput still changing after " + experiment.warmup().toSeconds()
                        + " s of warmup (windows " + warm.windowsRps().stream().map(v -> String.format("%.0f", v)).toList()
                        + " rps); the measurement may include JIT warmup, consider a longer --warmup");
            }
            log.line(name + " " + scenario.name() + ": measuring (" + profile.kind() + ")");
            Measurement m;
            DriverCpu driverCpu = new DriverCpu(cpus.driver().size());
            try (driverCpu) {
                if (Reaper.stopping()) {
                    throw new LabException("interrupted");
                }
                m = LoadDriver.run(spec, progress(name, scenario, "measure", log));
            }
            Map<String, Object> r = ScenarioResult.of(name, scenario.name(), m, profile instanceof Profile.Rate);
            String hlog = name + "." + scenario.name() + ".hlog";
            Hlog.write(dir.resolve(hlog), name + " " + scenario.name() + " " + scenario.path(), m.intervals());
            r.put("hlog", hlog);
            String csv = name + "." + scenario.name() + ".series.csv";
            SeriesCsv.write(dir.resolve(csv), r);
            r.put("series_csv", csv);
            r.put("warmup", warmup(warm));
            r.put("driver", driver(driverCpu));
            if (target.process().isAlive()) {
                return r;
            }
            return ScenarioResult.failed(name, scenario.name(), "target exited during the run (code "
                    + target.process().exitValue() + "); last lines:\n" + target.process().logTail(10));
        } catch (LabException e) {
            log.line(name + " " + scenario.name() + ": failed: " + e.getMessage());
            return ScenarioResult.failed(name, scenario.name(), e.getMessage());
        }
    }

    private static Map<String, Object> warmup(Warmup.Outcome w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", ScenarioResult.round(w.millis() / 1000.0));
        m.put("windows_rps", w.windowsRps().stream().map(ScenarioResult::round).toList());
        m.put("stable", w.stable());
        return m;
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

    private static SecondListener progress(String target, Scenario scenario, String phase, RunLog log) {
        return (Second s) -> log.line(String.format("  %s %s %s t=%ds users=%d rps=%.0f p99=%s errors=%d",
                target, scenario.name(), phase, s.t(), s.users(), s.rps(),
                Double.isNaN(s.p99Ms()) ? "-" : String.format("%.1fms", s.p99Ms()), s.errors()));
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

    /** Embedded PostgreSQL is started by the (driver-pinned) lab; move it and its backends to the support CPUs. */
    private void pinDatabase() {
        ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
                .forEach(p -> cpus.move(p.pid(), cpus.support()));
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
