package dev.loomflux.lab.calibrate;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.measure.DriverCpu;
import dev.loomflux.lab.result.DriverCheck;
import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.wrk.Wrk;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/** One calibration step's measurements: the lab's driver and wrk, round after round, on the same server. */
final class CalibrationRounds {
    /** A round is quiet when other processes used less than this (100 = a core) of each CPU set. */
    static final double QUIET_PCT = 10;

    private final Wrk wrk;
    private final CpuPlan cpus;
    private final int connections;
    private final Duration measured;
    private final LoadDriver driver;
    private final int rounds;
    private final Path logs;
    private final PrintWriter out;

    CalibrationRounds(LoadDriver driver, Wrk wrk, CpuPlan cpus, int connections, Duration measured, int rounds, Path logs, PrintWriter out) {
        this.driver = driver;
        this.wrk = wrk;
        this.cpus = cpus;
        this.connections = connections;
        this.measured = measured;
        this.rounds = rounds;
        this.logs = logs;
        this.out = out;
    }

    /** What the lab's driver measured in one measurement. */
    record LabSample(double rps, double cpuPct, boolean saturated, long errors, double p99Ms) {
    }

    /** Every round of one step, both generators. */
    record StepRounds(List<LabSample> lab, List<Wrk.RunWithCpu> wrk, List<Boolean> quiet) {
        double[] quietOnly(double[] perRound) {
            return IntStream.range(0, perRound.length).filter(quiet::get).mapToDouble(i -> perRound[i]).toArray();
        }

        double[] labRps() {
            return lab.stream().mapToDouble(LabSample::rps).toArray();
        }

        double[] wrkRps() {
            return wrk.stream().mapToDouble(w -> w.result().requestsPerSecond()).toArray();
        }

        double labMedian(ToDoubleFunction<LabSample> f) {
            return Stats.summarize(lab.stream().mapToDouble(f).toArray()).median();
        }

        double wrkMedian(ToDoubleFunction<Wrk.RunWithCpu> f) {
            return Stats.summarize(wrk.stream().mapToDouble(f).toArray()).median();
        }

        long labErrors() {
            return lab.stream().mapToLong(LabSample::errors).sum();
        }

        long wrkErrors() {
            return wrk.stream().mapToLong(w -> w.result().errors()).sum();
        }

        Estimate ratio() {
            return CalibrationStep.ratios(labRps(), wrkRps());
        }
    }

    /**
     * Both generators, {@code rounds} times, in the order lab-wrk, wrk-lab, lab-wrk, ...: on a
     * machine shared with other benchmarks (or a target whose JIT is still settling), whichever
     * always went second would otherwise get all of the drift.
     */
    StepRounds run(URI base, String path, long serverPid, String name) {
        List<LabSample> lab = new ArrayList<>();
        List<Wrk.RunWithCpu> ref = new ArrayList<>();
        List<Boolean> quiet = new ArrayList<>();
        for (int i = 1; i <= rounds; i++) {
            Path log = logs.resolve("wrk-" + name + "-" + i + ".log");
            double labJvmDuringWrk = 0;
            Interference.OthersCpu labOthers = null;
            Interference.OthersCpu wrkOthers = null;
            for (int j = 0; j < 2; j++) {
                // Odd rounds: lab then wrk; even rounds: wrk then lab.
                boolean labTurn = (j == 0) == (i % 2 == 1);
                if (labTurn) {
                    Interference seen = Interference.start(cpus.driver(), cpus.target(), serverPid);
                    lab.add(measure(base, path));
                    labOthers = seen.stop();
                } else {
                    Interference seen = Interference.start(cpus.driver(), cpus.target(), serverPid);
                    // The lab's JVM shares the driver CPUs with wrk; its own CPU meanwhile shows whether it got in wrk's way.
                    DriverCpu labJvm = new DriverCpu(cpus.driver().size());
                    try (labJvm) {
                        ref.add(wrk.run(cpus.driverPlacement().prefix(), cpus.driver().size(), connections, measured, base.resolve(path), log));
                    }
                    labJvmDuringWrk = labJvm.mean(measured);
                    wrkOthers = seen.stop();
                }
            }
            quiet.add(labOthers.quiet(QUIET_PCT) && wrkOthers.quiet(QUIET_PCT));
            LabSample l = lab.get(i - 1);
            Wrk.RunWithCpu w = ref.get(i - 1);
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
        StepRounds r = new StepRounds(lab, ref, quiet);
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

    private LabSample measure(URI base, String path) {
        LoadSpec load = new LoadSpec(base, path, new LoadProfile.Fixed(connections, measured), cpus.driver().size(), Duration.ofSeconds(10));
        Measurement m;
        // Counted from the first second the driver reports, not from the start: JMeter is a JVM started for each load,
        // and its start (2-3 s of CPU) is no part of what a request costs it.
        AtomicReference<DriverCpu> cpu = new AtomicReference<>();
        try {
            m = driver.run(load, s -> cpu.compareAndSet(null, new DriverCpu(cpus.driver().size(), driver::processes)));
        } finally {
            if (cpu.get() != null) {
                cpu.get().close();
            }
        }
        if (cpu.get() == null) {
            throw new LabException("the driver reported no second of its load");
        }
        double rps = m.throughput();
        DriverCheck used = cpu.get().check(m.elapsed());
        return new LabSample(rps, used.cpuPctMean(), used.saturated(), m.errors().total(), m.latency().getValueAtPercentile(99) / 1e6);
    }
}
