package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.calibrate.Calibration;
import dev.loomflux.lab.experiment.DriverChoice;
import dev.loomflux.lab.experiment.ExperimentReader;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.MachineLock;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.sut.Targets;
import dev.loomflux.lab.wrk.Wrk;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** A benchmark of the lab itself ({@link Calibration}). */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Measure the load driver's own ceiling against the stub at 0 ms, and compare it with wrk on the stub and on a target's /plaintext.")
public final class CalibrateCommand implements Callable<Integer> {

    @Option(names = "--connections", defaultValue = "64", description = "Connections, for the lab and wrk. Default: ${DEFAULT-VALUE}.")
    int connections;

    @Option(names = "--duration", defaultValue = "10s", description = "Measured time per generator and step, whole seconds. Default: ${DEFAULT-VALUE}.")
    String duration;

    @Option(names = "--target", defaultValue = "mvc-vt", paramLabel = "NAME",
            description = "Target whose /plaintext both generators measure: mvc, mvc-vt, webflux, webflux-vt or a --define'd name. Default: ${DEFAULT-VALUE}.")
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
    DriverOptions driver;

    @Mixin
    CpuOptions cpuOptions;

    @Mixin
    JvmOptions jvm;

    @Mixin
    MachineOptions machine;

    @Spec
    CommandSpec spec;

    private final LabProcesses processes;

    public CalibrateCommand(LabProcesses processes) {
        this.processes = processes;
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
        Wrk wrk = Wrk.locate(processes);
        Targets targets = new Targets();
        definitions.forEach(targets::define);
        TargetSpec targetSpec = targets.get(target, "--target");
        CpuPlan cpus = cpuOptions.plan();
        LaunchSettings settings = jvm.settings();
        Home home = Home.detect();
        targetSpec.app().jar(home);
        try (MachineLock taken = machine.take("calibrate", out)) {
            new Calibration(driver.driver(DriverChoice.NONE, false, false), connections, measured, rounds, targetWarmup, processes, processes::stopping).run(home, settings, cpus, targetSpec, wrk, out);
        }
        return 0;
    }
}
