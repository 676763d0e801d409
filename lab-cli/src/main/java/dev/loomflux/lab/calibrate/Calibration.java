package dev.loomflux.lab.calibrate;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.measure.SteadySignals;
import dev.loomflux.lab.measure.Warmup;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.stats.Verdict;
import dev.loomflux.lab.steady.SteadyRule;
import dev.loomflux.lab.sut.Downstream;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import dev.loomflux.lab.wrk.Wrk;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark of the lab itself, in two steps, each measured by the lab's driver and then by wrk
 * with the same connections, duration and CPU set:
 * <ol>
 * <li>the stub at 0 ms on the target's CPUs: how many requests per second the driver can offer
 *     (if the driver is not saturated, its ceiling is estimated from its CPU cost per request);</li>
 * <li>a real target's /plaintext, warmed up first: whether the lab measures what wrk measures.</li>
 * </ol>
 * Both generators get the same connections, measured time and rounds.
 *
 * @param processes what the lab owns: the stub and the target are started as its
 */
public record Calibration(LoadDriver driver, int connections, Duration measured, int rounds, Duration targetWarmup, LabProcesses processes, Stop stop) {
    private static final String STUB_PATH = "/delay?ms=0";
    private static final String TARGET_PATH = "/plaintext";
    private static final Duration STUB_WARMUP = Duration.ofSeconds(10);
    /** A request that cannot be answered: the plaintext target never needs the stub. */
    private static final URI NO_DOWNSTREAM = URI.create("http://127.0.0.1:9");

    /** Runs both steps with this lab process moved onto the driver's CPUs, and prints the table. */
    public void run(Home home, LaunchSettings settings, CpuPlan cpus, TargetSpec targetSpec, Wrk wrk, PrintWriter out) {
        Path logs = home.results().resolve("calibrate");
        long self = ProcessHandle.current().pid();
        String before = CpuPlan.affinityOf(self);
        cpus.move(self, cpus.driver());
        try {
            List<CalibrationStep> steps = new ArrayList<>();
            steps.add(stub(home, settings, cpus, wrk, logs, out));
            steps.add(target(home, settings, cpus, targetSpec, wrk, logs, out));
            out.println("calibrate: same CPUs (" + CpuPlan.list(cpus.driver()) + "), " + connections + " connections and "
                    + measured.toSeconds() + " s for both generators; ratio = lab / wrk; CPU 100% = one core");
            CalibrationStep.table(steps).forEach(l -> out.println("  " + l));
            out.println("calibrate: wrk logs in " + logs);
            out.flush();
        } finally {
            cpus.restore(self, before);
        }
    }

    /** The stub at 0 ms on the target's CPUs: the driver's ceiling, then wrk's on the same CPUs. */
    private CalibrationStep stub(Home home, LaunchSettings settings, CpuPlan cpus, Wrk wrk, Path logs, PrintWriter out) {
        try (Downstream stub = Downstream.start(processes, home, settings, cpus.targetPlacement(), logs)) {
            out.printf("calibrate: stub on CPUs %s, driver on CPUs %s (%s), %d connections%n",
                    CpuPlan.affinityOf(stub.pid()), CpuPlan.list(cpus.driver()), cpus.note(), connections);
            out.flush();
            driver.run(new LoadSpec(stub.base(), STUB_PATH, new LoadProfile.Fixed(connections, STUB_WARMUP), cpus.driver().size(), Duration.ofSeconds(10)), s -> { });
            CalibrationRounds.StepRounds r = new CalibrationRounds(driver, wrk, cpus, connections, measured, rounds, logs, out).run(stub.base(), STUB_PATH, stub.pid(), "stub");
            double labRps = r.labMedian(CalibrationRounds.LabSample::rps);
            double labCpu = r.labMedian(CalibrationRounds.LabSample::cpuPct);
            boolean saturated = r.lab().stream().filter(CalibrationRounds.LabSample::saturated).count() * 2 > r.lab().size();
            double usPerRequest = labCpu / 100.0 * 1_000_000 / Math.max(1, labRps);
            double ceiling = cpus.driver().size() * 1_000_000 / Math.max(0.001, usPerRequest);
            out.printf("calibrate: driver CPU %.0f%% of one core (%d CPU(s)), %.1f us CPU per request (medians)%n", labCpu, cpus.driver().size(), usPerRequest);
            out.printf("calibrate: driver ceiling %s%.0f requests/s on its CPU set%n", saturated ? "" : "~", saturated ? labRps : ceiling);
            if (!saturated) {
                out.println("calibrate: the driver was not saturated (the stub was the limit); the ceiling is estimated from its CPU cost per request");
            }
            CalibrationStep step = CalibrationStep.onStub("stub " + STUB_PATH, labRps, labCpu, r.labErrors(),
                    r.wrkMedian(w -> w.result().requestsPerSecond()), r.wrkMedian(Wrk.RunWithCpu::cpuPct), r.wrkErrors(), r.ratio());
            verdict(r, out);
            out.println("calibrate: " + step.line());
            out.flush();
            return step;
        }
    }

    /** A real target's /plaintext, pinned as ./lab run pins it and warmed up by the lab's driver. */
    private CalibrationStep target(Home home, LaunchSettings settings, CpuPlan cpus, TargetSpec targetSpec, Wrk wrk, Path logs, PrintWriter out) {
        try (RunningTarget t = RunningTarget.start(processes, home, targetSpec, settings, cpus.targetPlacement(), NO_DOWNSTREAM, null, logs)) {
            out.printf("calibrate: %s ready in %d ms on CPUs %s; warmup up to %d s%n", targetSpec.name(), t.startupMillis(),
                    CpuPlan.affinityOf(t.process().pid()), targetWarmup.toSeconds());
            out.flush();
            LoadSpec warm = new LoadSpec(t.base(), TARGET_PATH, new LoadProfile.Fixed(connections, measured), cpus.driver().size(), Duration.ofSeconds(10));
            Warmup.Outcome w0;
            try (ResourceSampler jvm = new ResourceSampler().watch(ResourceReport.TARGET, () -> List.of(t.process().pid()), true).start()) {
                w0 = Warmup.run(new Warmup.Means(driver, SteadyRule.DEFAULT, new SteadySignals(jvm, null), stop), warm, targetWarmup, s -> { });
            }
            out.printf("calibrate: %s%n", w0.steady() ? "steady after " + w0.secondsToSteady() + " s of warmup"
                    : "not steady after " + w0.millis() / 1000 + " s (" + (w0.check() == null ? "no warmup" : w0.check().describe()) + "): consider a longer --warmup");
            CalibrationRounds.StepRounds r = new CalibrationRounds(driver, wrk, cpus, connections, measured, rounds, logs, out).run(t.base(), TARGET_PATH, t.process().pid(), targetSpec.name());
            CalibrationStep step = CalibrationStep.onTarget(targetSpec.name() + " " + TARGET_PATH, r.labMedian(CalibrationRounds.LabSample::rps),
                    r.labMedian(CalibrationRounds.LabSample::cpuPct), r.labErrors(), r.wrkMedian(w -> w.result().requestsPerSecond()), r.wrkMedian(Wrk.RunWithCpu::cpuPct), r.wrkErrors(), r.ratio());
            verdict(r, out);
            out.println("calibrate: " + step.line());
            out.flush();
            return step;
        }
    }

    /**
     * Whether lab and wrk differ beyond the round-to-round noise (docs/statistics.md). Unpaired, so
     * more cautious than the per-round ratio: drift that moves both in a round counts as noise here.
     */
    private static void verdict(CalibrationRounds.StepRounds r, PrintWriter out) {
        Verdict v = Stats.compare("throughput", "wrk", r.wrkRps(), "lab", r.labRps(), true);
        out.println("calibrate: lab vs wrk: " + v.text());
    }
}
