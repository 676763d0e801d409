package dev.loomflux.lab.cli;

import dev.loomflux.lab.driver.DriverSetup;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.capacity.CapacityPlan;
import dev.loomflux.lab.capacity.Slo;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.process.MachineLock;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.run.Runner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "capacity", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Find each target's capacity: the highest open-model rate that meets an SLO.",
                "Rate steps double, then bisect to 5%%, each after its own warmup; reports each target's capacity and its latency-vs-rate curve."})
public final class CapacityCommand implements Callable<Integer> {
    @Option(names = "--slo", paramLabel = "PCT<MS", defaultValue = "p99<50ms",
            description = "Latency bound, e.g. p99<50ms (p50, p90, p95, p99, p999). Default: ${DEFAULT-VALUE}.")
    String slo;

    @Option(names = "--max-errors", paramLabel = "PCT", defaultValue = "0.1%",
            description = "Most errors a step may have, in %% of requests. Default: ${DEFAULT-VALUE}.")
    String maxErrors;

    @Option(names = "--start", paramLabel = "RPS", defaultValue = "100", description = "First rate. Default: ${DEFAULT-VALUE}.")
    int start;

    @Option(names = "--max-rps", paramLabel = "RPS", defaultValue = "200000", description = "Stop doubling here. Default: ${DEFAULT-VALUE}.")
    int maxRps;

    @Option(names = "--step", paramLabel = "TIME", defaultValue = "10s", description = "Measured time per step. Default: ${DEFAULT-VALUE}.")
    String step;

    @Option(names = "--step-warmup", paramLabel = "TIME", defaultValue = "30s",
            description = "Most warmup before each later step, at its own rate, until steady. Default: ${DEFAULT-VALUE}.")
    String stepWarmup;

    @Option(names = "--warmup", paramLabel = "TIME", defaultValue = "180s",
            description = "Most warmup before the first step of each target (cold JIT), until steady. Default: ${DEFAULT-VALUE}.")
    String warmup;

    @Option(names = "--cooldown", paramLabel = "TIME", defaultValue = "5s", description = "Pause between targets. Default: ${DEFAULT-VALUE}.")
    String cooldown;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
            description = "Searches per target, each in a fresh JVM, interleaved as in ./lab run --repeat; with 2 or more the lab "
                    + "reports each target's median capacity and how far its searches spread. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Mixin
    ScenarioOptions scenarioOptions;

    @Mixin
    TargetOptions targets;

    @Mixin
    CpuOptions cpuOptions;

    @Mixin
    JvmOptions jvm;

    @Mixin
    DatabaseOptions db;

    @Mixin
    MachineOptions machine;

    @Spec
    CommandSpec spec;

    private final LabProcesses processes;

    static final double RESOLUTION = 0.05;
    static final int MAX_STEPS = 20;

    public CapacityCommand(LabProcesses processes) {
        this.processes = processes;
    }

    @Override
    public Integer call() {
        execute();
        return processes.stopping() ? 130 : 0;
    }

    /** Searches each target x scenario's capacity; the run's record, as results.json holds it. */
    public RunRecord execute() {
        Slo bound = Slo.parse(slo, maxErrors);
        if (start < 1 || maxRps < start) {
            throw new UsageException("--start " + start + " / --max-rps " + maxRps + ": expected 1 <= start <= max-rps");
        }
        Duration stepTime = Flags.duration("--step", step, false);
        CapacityPlan plan = new CapacityPlan(bound, start, maxRps, stepTime, Flags.duration("--step-warmup", stepWarmup, true), RESOLUTION, MAX_STEPS);
        List<Scenario> scenarios = scenarioOptions.select(List.of("gateway"));
        Experiment experiment = Experiment.builder("capacity-" + String.join("+", scenarios.stream().map(s -> s.kind().id()).toList()),
                targets.select(), scenarios, new LoadProfile.Rate(start, stepTime, plan.inFlight(start))).warmup(Flags.duration("--warmup", warmup, true))
                .cooldown(Flags.duration("--cooldown", cooldown, true)).repeats(Flags.count("--repeat", repeat)).build();
        LaunchSettings settings = jvm.settings();
        CpuPlan cpus = cpuOptions.plan();
        LimitsCheck.require(experiment.targets(), settings, cpus.target(), jvm.cpus != null, jvm.memory != null, null);
        try (MachineLock taken = machine.take("capacity", spec.commandLine().getOut())) {
            return new Runner(Home.detect(), experiment, Procedure.capacity(plan), new Runner.Setup(settings, cpus, db, Drivers.ALL.byDefault().create(DriverSetup.plain(processes)), processes, CategoryRules.lab()), processes::stopping,
                    spec.commandLine().getOut()).run();
        }
    }
}
