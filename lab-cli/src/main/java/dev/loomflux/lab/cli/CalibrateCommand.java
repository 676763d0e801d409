package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.experiment.ExperimentReader;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.run.CpuPlan;
import dev.loomflux.lab.run.DriverCpu;
import dev.loomflux.lab.run.Warmup;
import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.stats.Verdict;
import dev.loomflux.lab.target.Downstream;
import dev.loomflux.lab.target.LaunchSettings;
import dev.loomflux.lab.target.RunningTarget;
import dev.loomflux.lab.target.TargetSpec;
import dev.loomflux.lab.target.Targets;
import dev.loomflux.lab.wrk.Wrk;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A benchmark of the lab itself, in two steps, each measured by the lab's driver and then by wrk
 * with the same connections, duration and CPU set:
 * <ol>
 * <li>the stub at 0 ms on the target's CPUs: how many requests per second the driver can offer
 *     (if the driver is not saturated, its ceiling is estimated from its CPU cost per request);</li>
 * <li>a real target's /plaintext, warmed up first: whether the lab measures what wrk measures.</li>
 * </ol>
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Measure the load driver's own ceiling against the stub at 0 ms, and compare it with wrk on the stub and on a target's /plaintext.")
public final class CalibrateCommand implements Callable<Integer> {
    private static final String STUB_PATH = "/delay?ms=0";
    private static final String TARGET_PATH = "/plaintext";
    private static final Duration STUB_WARMUP = Duration.ofSeconds(10);
    /** A round is quiet when other processes used less than this (100 = a core) of each CPU set. */
    private static final double QUIET_PCT = 10;
    /** A request that cannot be answered: the plaintext target never needs the stub. */
    private static final URI NO_DOWNSTREAM = URI.create("http://127.0.0.1:9");

    @Option(names = "--connections", defaultValue = "64", description = "Connections, for the lab and wrk. Default: ${DEFAULT-VALUE}.")
    int connections;

    @Option(names = "--duration", defaultValue = "10s", description = "Measured time per generator and step, whole seconds. Default: ${DEFAULT-VALUE}.")
    String duration;

    @Option(names = "--target", defaultValue = "mvc-vt", paramLabel = "NAME",
            description = "Target whose /plaintext both generators measure: mvc, mvc-vt, webflux or a --define'd name. Default: ${DEFAULT-VALUE}.")
    String target;

    @Option(names = "--define", paramLabel = "NAME=BASE[,key=value...][,-JVMFLAG...]",
            description = "Declare a target on top of another, as for ./lab run. Repeatable.")
    List<String> definitions = new ArrayList<>();

    @Option(names = "--rounds", defaultValue = "5",
            description = "Measurements per generator and step, alternating lab-wrk, wrk-lab, ... so drift on a shared machine hits both; "
                    + "medians are reported. Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Option(names = "--warmup", defaultValue = "60s",
            description = "Target warmup with the lab's driver before measuring, until two 5 s windows agree within 10%%. Default: ${DEFAULT-VALUE}.")
    String warmup;

    @Mixin
    CpuOptions cpuOptions;

    @Mixin
    JvmOptions jvm;

    @Spec
    CommandSpec spec;

    /** What the lab's driver measured in one measurement. */
    private record LabRun(double rps, double cpuPct, boolean saturated, long errors, double p99Ms) {
    }

    /** Every round of one step, both generators. */
    private record Rounds(List<LabRun> lab, List<Wrk.Run> wrk, List<Boolean> quiet) {
        double[] quietOnly(double[] perRound) {
            return java.util.stream.IntStream.range(0, perRound.length).filter(quiet::get).mapToDouble(i -> perRound[i]).toArray();
        }

        double[] labRps() {
            return lab.stream().mapToDouble(LabRun::rps).toArray();
        }

        double[] wrkRps() {
            return wrk.stream().mapToDouble(w -> w.result().requestsPerSecond()).toArray();
        }

        double labMedian(java.util.function.ToDoubleFunction<LabRun> f) {
            return Stats.summarize(lab.stream().mapToDouble(f).toArray()).median();
        }

        double wrkMedian(java.util.function.ToDoubleFunction<Wrk.Run> f) {
            return Stats.summarize(wrk.stream().mapToDouble(f).toArray()).median();
        }

        long labErrors() {
            return lab.stream().mapToLong(LabRun::errors).sum();
        }

        long wrkErrors() {
            return wrk.stream().mapToLong(w -> w.result().errors()).sum();
        }

        Estimate ratio() {
            return CalibrationStep.ratios(labRps(), wrkRps());
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (rounds < 1) {
            throw new UsageException("--rounds " + rounds + ": must be at least 1");
        }
        if (connections < 1) {
            throw new UsageException("--connections " + connections + ": must be at least 1");
        }
        Duration measured = ExperimentReader.duration(duration, m -> new UsageException("--duration " + duration + ": " + m));
        if (measured.toSeconds() < 1) {
            throw new UsageException("--duration " + duration + ": must be at least 1s (wrk counts whole seconds)");
        }
        measured = Duration.ofSeconds(measured.toSeconds());
        Duration targetWarmup = ExperimentReader.duration(warmup, m -> new UsageException("--warmup " + warmup + ": " + m));
        Wrk wrk = Wrk.locate();
        Targets targets = new Targets();
        definitions.forEach(targets::define);
        TargetSpec targetSpec = targets.get(target, "--target");
        CpuPlan cpus = cpuOptions.plan();
        LaunchSettings settings = jvm.settings();
        Home home = Home.detect();
        home.jar(targetSpec.app().module(), targetSpec.app().jar());
        Path logs = home.results().resolve("calibrate");

        long self = ProcessHandle.current().pid();
        String before = CpuPlan.affinityOf(self);
        cpus.move(self, cpus.driver());
        try {
            List<CalibrationStep> steps = new ArrayList<>();
            steps.add(stub(home, settings, cpus, measured, wrk, logs, out));
            steps.add(target(home, settings, cpus, targetSpec, targetWarmup, measured, wrk, logs, out));
            out.println("calibrate: same CPUs (" + CpuPlan.list(cpus.driver()) + "), " + connections + " connections and "
                    + measured.toSeconds() + " s for both generators; ratio = lab / wrk; CPU 100% = one core");
            CalibrationStep.table(steps).forEach(l -> out.println("  " + l));
            out.println("calibrate: wrk logs in " + logs);
            out.flush();
            return 0;
        } finally {
            cpus.restore(self, before);
        }
    }

    /** The stub at 0 ms on the target's CPUs: the driver's ceiling, then wrk's on the same CPUs. */
    private CalibrationStep stub(Home home, LaunchSettings settings, CpuPlan cpus, Duration measured, Wrk wrk, Path logs, PrintWriter out) {
        try (Downstream stub = Downstream.start(home, settings, cpus.targetPlacement(), logs)) {
            out.printf("calibrate: stub on CPUs %s, driver on CPUs %s (%s), %d connections%n",
                    CpuPlan.affinityOf(stub.pid()), CpuPlan.list(cpus.driver()), cpus.note(), connections);
            out.flush();
            LoadDriver.run(new LoadSpec(stub.base(), STUB_PATH, new Profile.Fixed(connections, STUB_WARMUP), cpus.driver().size(), Duration.ofSeconds(10)), s -> { });
            Rounds r = rounds(stub.base(), STUB_PATH, stub.pid(), cpus, measured, wrk, logs, "stub", out);
            double labRps = r.labMedian(LabRun::rps);
            double labCpu = r.labMedian(LabRun::cpuPct);
            boolean saturated = r.lab().stream().filter(LabRun::saturated).count() * 2 > r.lab().size();
            double usPerRequest = labCpu / 100.0 * 1_000_000 / Math.max(1, labRps);
            double ceiling = cpus.driver().size() * 1_000_000 / Math.max(0.001, usPerRequest);
            out.printf("calibrate: driver CPU %.0f%% of one core (%d CPU(s)), %.1f us CPU per request (medians)%n", labCpu, cpus.driver().size(), usPerRequest);
            out.printf("calibrate: driver ceiling %s%.0f requests/s on its CPU set%n", saturated ? "" : "~", saturated ? labRps : ceiling);
            if (!saturated) {
                out.println("calibrate: the driver was not saturated (the stub was the limit); the ceiling is estimated from its CPU cost per request");
            }
            CalibrationStep step = CalibrationStep.onStub("stub " + STUB_PATH, labRps, labCpu, r.labErrors(),
                    r.wrkMedian(w -> w.result().requestsPerSecond()), r.wrkMedian(Wrk.Run::cpuPct), r.wrkErrors(), r.ratio());
            verdict(r, out);
            out.println("calibrate: " + step.line());
            out.flush();
            return step;
        }
    }

    /** A real target's /plaintext, pinned as ./lab run pins it and warmed up by the lab's driver. */
    private CalibrationStep target(Home home, LaunchSettings settings, CpuPlan cpus, TargetSpec targetSpec, Duration targetWarmup,
                                   Duration measured, Wrk wrk, Path logs, PrintWriter out) {
        try (RunningTarget t = RunningTarget.start(home, targetSpec, settings, cpus.targetPlacement(), NO_DOWNSTREAM, null, logs)) {
            out.printf("calibrate: %s ready in %d ms on CPUs %s; warmup up to %d s%n", targetSpec.name(), t.startupMillis(),
                    CpuPlan.affinityOf(t.process().pid()), targetWarmup.toSeconds());
            out.flush();
            LoadSpec warm = new LoadSpec(t.base(), TARGET_PATH, new Profile.Fixed(connections, measured), cpus.driver().size(), Duration.ofSeconds(10));
            Warmup.Outcome w0 = Warmup.run(warm, targetWarmup, s -> { });
            out.printf("calibrate: warmup windows %s requests/s%s%n", w0.windowsRps().stream().map(v -> String.format("%.0f", v)).toList(),
                    w0.stable() || targetWarmup.isZero() ? "" : " (still changing: consider a longer --warmup)");
            Rounds r = rounds(t.base(), TARGET_PATH, t.process().pid(), cpus, measured, wrk, logs, targetSpec.name(), out);
            CalibrationStep step = CalibrationStep.onTarget(targetSpec.name() + " " + TARGET_PATH, r.labMedian(LabRun::rps),
                    r.labMedian(LabRun::cpuPct), r.labErrors(), r.wrkMedian(w -> w.result().requestsPerSecond()), r.wrkMedian(Wrk.Run::cpuPct), r.wrkErrors(), r.ratio());
            verdict(r, out);
            out.println("calibrate: " + step.line());
            out.flush();
            return step;
        }
    }

    /**
     * Both generators, {@code rounds} times, in the order lab-wrk, wrk-lab, lab-wrk, ...: on a
     * machine shared with other benchmarks (or a target whose JIT is still settling), whichever
     * always went second would otherwise get all of the drift.
     */
    private Rounds rounds(URI base, String path, long serverPid, CpuPlan cpus, Duration measured, Wrk wrk, Path logs, String name, PrintWriter out) {
        List<LabRun> lab = new ArrayList<>();
        List<Wrk.Run> ref = new ArrayList<>();
        List<Boolean> quiet = new ArrayList<>();
        for (int i = 1; i <= rounds; i++) {
            Path log = logs.resolve("wrk-" + name + "-" + i + ".log");
            double labJvmDuringWrk = 0;
            Interference.Result labOthers = null;
            Interference.Result wrkOthers = null;
            for (int j = 0; j < 2; j++) {
                // Odd rounds: lab then wrk; even rounds: wrk then lab.
                boolean labTurn = (j == 0) == (i % 2 == 1);
                if (labTurn) {
                    Interference seen = Interference.start(cpus.driver(), cpus.target(), serverPid);
                    lab.add(measure(base, path, cpus, measured));
                    labOthers = seen.stop(0);
                } else {
                    Interference seen = Interference.start(cpus.driver(), cpus.target(), serverPid);
                    // The lab's JVM shares the driver CPUs with wrk; its own CPU meanwhile shows whether it got in wrk's way.
                    DriverCpu labJvm = new DriverCpu(cpus.driver().size());
                    try (labJvm) {
                        ref.add(wrk.run(cpus.driverPlacement().prefix(), cpus.driver().size(), connections, measured, base.resolve(path), log));
                    }
                    labJvmDuringWrk = labJvm.mean();
                    wrkOthers = seen.stop(ref.get(ref.size() - 1).cpuPct());
                }
            }
            quiet.add(labOthers.quiet(QUIET_PCT) && wrkOthers.quiet(QUIET_PCT));
            LabRun l = lab.get(i - 1);
            Wrk.Run w = ref.get(i - 1);
            if (w.result().requestsPerSecond() <= 0) {
                throw new LabException("wrk completed no requests in round " + i + " against " + base.resolve(path) + " (" + log + ")");
            }
            out.printf("calibrate: %s %s round %d (%s): lab %.0f requests/s, p99 %.2f ms, errors %d, CPU %.0f%% | wrk %.0f requests/s, p99 %.2f ms, errors %d, CPU %.0f%% (lab JVM meanwhile %.0f%%)%n",
                    name, path, i, i % 2 == 1 ? "lab first" : "wrk first", l.rps(), l.p99Ms(), l.errors(), l.cpuPct(),
                    w.result().requestsPerSecond(), w.result().p99Ms(), w.result().errors(), w.cpuPct(), labJvmDuringWrk);
            out.printf("calibrate:   other processes on the driver / server CPUs: %.0f%% / %.0f%% during lab, %.0f%% / %.0f%% during wrk%s%n",
                    labOthers.onDriverPct(), labOthers.onServerPct(), wrkOthers.onDriverPct(), wrkOthers.onServerPct(),
                    quiet.get(i - 1) ? " (quiet round)" : "");
            out.flush();
        }
        if (!ref.isEmpty()) {
            out.println("calibrate: wrk command: " + String.join(" ", ref.get(0).command()));
        }
        Rounds r = new Rounds(lab, ref, quiet);
        double[] quietLab = r.quietOnly(r.labRps());
        if (quietLab.length > 0) {
            Estimate q = CalibrationStep.ratios(quietLab, r.quietOnly(r.wrkRps()));
            out.printf("calibrate: %s %s: %d of %d rounds quiet (others < %.0f%% of a core on each CPU set); lab / wrk over them: median %.3f%s%n",
                    name, path, quietLab.length, lab.size(), QUIET_PCT, q.median(),
                    q.n() > 1 ? String.format(" (95%% CI %.3f-%.3f)", q.ciLow(), q.ciHigh()) : "");
        } else {
            out.printf("calibrate: %s %s: no quiet round (other processes used >= %.0f%% of a core on the driver or server CPUs in every round)%n",
                    name, path, QUIET_PCT);
        }
        return r;
    }

    /**
     * Whether lab and wrk differ beyond the round-to-round noise (docs/statistics.md). Unpaired, so
     * more cautious than the per-round ratio: drift that moves both in a round counts as noise here.
     */
    private static void verdict(Rounds r, PrintWriter out) {
        Verdict v = Stats.compare("throughput", "wrk", r.wrkRps(), "lab", r.labRps(), true);
        out.println("calibrate: lab vs wrk: " + v.text());
    }

    private LabRun measure(URI base, String path, CpuPlan cpus, Duration measured) {
        LoadSpec load = new LoadSpec(base, path, new Profile.Fixed(connections, measured), cpus.driver().size(), Duration.ofSeconds(10));
        Measurement m;
        DriverCpu cpu = new DriverCpu(cpus.driver().size());
        try (cpu) {
            m = LoadDriver.run(load, s -> { });
        }
        double rps = m.responses() / (m.elapsed().toMillis() / 1000.0);
        return new LabRun(rps, cpu.mean(), cpu.saturated(), m.errors().total(), m.latency().getValueAtPercentile(99) / 1e6);
    }
}
