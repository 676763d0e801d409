package dev.loomflux.lab.cli;

import dev.loomflux.lab.driver.DriverSetup;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.capacity.CapacityPlan;
import dev.loomflux.lab.capacity.Slo;
import dev.loomflux.lab.experiment.Design;
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
                "Paired (the default): every target at each rung of a ladder of rates in the same interleaved rounds, the rungs four times apart, "
                        + "then refined near each target's knee; each capacity with a 95%% interval, each pair's ratio with a verdict.",
                "Sequential (--design sequential): per target, rate steps double, then bisect to 5%%, each after its own warmup."})
public final class CapacityCommand implements Callable<Integer> {
    @Option(names = "--slo", paramLabel = "PCT<MS", defaultValue = "p99<50ms",
            description = "Latency bound, e.g. p99<50ms (p50, p90, p95, p99, p999). Default: ${DEFAULT-VALUE}.")
    String slo;

    @Option(names = "--max-errors", paramLabel = "PCT", defaultValue = "0.1%",
            description = "Most errors a step may have, in %% of requests. Default: ${DEFAULT-VALUE}.")
    String maxErrors;

    @Option(names = "--start", paramLabel = "RPS", description = "First rate. Default: " + LADDER_START + " (paired: the middle of the rates "
            + "the built-in targets' knees span, four times apart either way), " + SEARCH_START + " (sequential).")
    Integer start;

    @Option(names = "--max-rps", paramLabel = "RPS", defaultValue = "200000", description = "The highest rate tried. Default: ${DEFAULT-VALUE}.")
    int maxRps;

    @Option(names = "--step", paramLabel = "TIME", description = "Sequential: measured time per step. Default: " + DEFAULT_STEP + ".")
    String step;

    @Option(names = "--step-warmup", paramLabel = "TIME",
            description = "Sequential: most warmup before each later step, at its own rate, until steady. Default: " + DEFAULT_STEP_WARMUP + ".")
    String stepWarmup;

    @Option(names = "--warmup", paramLabel = "TIME", defaultValue = "180s",
            description = "Most warmup before the first step of each target (cold JIT), until steady. Default: ${DEFAULT-VALUE}.")
    String warmup;

    @Option(names = "--cooldown", paramLabel = "TIME", defaultValue = "5s", description = "Pause between targets. Default: ${DEFAULT-VALUE}.")
    String cooldown;

    @Option(names = "--rungs", paramLabel = "N", description = "Paired: the most rungs of the ladder. Default: " + LADDER_RUNGS + ".")
    Integer rungs;

    @Mixin
    DesignOptions designOptions;

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
    /** The sequential search's step and the warmup before each later one; no default in the options, so that a ladder can refuse them given. */
    private static final String DEFAULT_STEP = "10s";
    private static final String DEFAULT_STEP_WARMUP = "30s";
    /**
     * The ladder's rungs and its resolution: a rung of three JVMs takes about 40 s of rounds, so ten rungs and the warmups fit a
     * 15-minute run of three targets in one set; within 10% a bracket's ends are a rung's noise apart anyway
     * (docs/guide.md, "Capacity in paired rounds").
     */
    static final int LADDER_RUNGS = 10;
    static final double LADDER_RESOLUTION = 0.10;
    static final int LADDER_START = 1000;
    /**
     * One set of JVMs unless --sets: a second doubles every rung's minute and the warmups, past 15 minutes for three targets, and a
     * capacity's bracket is a rung wide, wider than a JVM's own level (docs/guide.md, "Capacity in paired rounds").
     */
    static final int LADDER_SETS = 1;
    static final int SEARCH_START = 100;
    /** Rounds per rung: enough for a median and its bootstrap, few enough for ten rungs. */
    static final int LADDER_ROUNDS = 8;

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
        Design design = designOptions.design(Design.paired(LADDER_ROUNDS, Design.DEFAULT_BLOCK, Design.DEFAULT_LEAD_IN, Design.LEAD_IN).stopping(true, null));
        if (design.paired() && (step != null || stepWarmup != null)) {
            // Accepted and ignored, they would read as if the ladder used them.
            throw new UsageException((step != null ? "--step" : "--step-warmup") + " applies to --design sequential only: the ladder measures each rung in rounds of --block");
        }
        Duration stepTime = Flags.duration("--step", step == null ? DEFAULT_STEP : step, false);
        int start = this.start != null ? this.start : design.paired() ? Math.min(LADDER_START, maxRps) : Math.min(SEARCH_START, maxRps);
        if (start < 1 || maxRps < start) {
            throw new UsageException("--start " + start + " / --max-rps " + maxRps + ": expected 1 <= start <= max-rps");
        }
        if (design.paired()) {
            bound.requireInBlocks();
        } else if (rungs != null) {
            throw new UsageException("--rungs applies to --design paired only");
        }
        CapacityPlan plan = design.paired()
                ? new CapacityPlan(bound, start, maxRps, design.block(), Duration.ZERO, LADDER_RESOLUTION, rungs == null ? LADDER_RUNGS : Flags.count("--rungs", rungs))
                : new CapacityPlan(bound, start, maxRps, stepTime, Flags.duration("--step-warmup", stepWarmup == null ? DEFAULT_STEP_WARMUP : stepWarmup, true), RESOLUTION, MAX_STEPS);
        List<Scenario> scenarios = scenarioOptions.select(List.of("gateway"));
        Experiment experiment = designOptions.jvms(Experiment.builder("capacity-" + String.join("+", scenarios.stream().map(s -> s.kind().id()).toList()),
                targets.select(), scenarios, new LoadProfile.Rate(start, stepTime, plan.inFlight(start))).warmup(Flags.duration("--warmup", warmup, true))
                .cooldown(Flags.duration("--cooldown", cooldown, true)).design(design).sets(LADDER_SETS).build(), false);
        LaunchSettings settings = jvm.settings();
        CpuPlan cpus = cpuOptions.plan();
        LimitsCheck.require(experiment.targets(), settings, cpus.target(), jvm.cpus != null, jvm.memory != null, null);
        try (MachineLock taken = machine.take("capacity", spec.commandLine().getOut())) {
            return new Runner(Home.detect(), experiment, Procedure.capacity(plan), new Runner.Setup(settings, cpus, db, Drivers.ALL.byDefault().create(DriverSetup.plain(processes)), processes, CategoryRules.lab()), processes::stopping,
                    spec.commandLine().getOut()).run();
        }
    }
}
