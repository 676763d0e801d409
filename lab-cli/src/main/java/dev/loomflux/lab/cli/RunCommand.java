package dev.loomflux.lab.cli;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.ExperimentReader;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.cpuprofile.CategoryRules;
import dev.loomflux.lab.process.MachineLock;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.run.Runner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, abbreviateSynopsis = true, modelTransformer = OptionSections.class,
        description = {"Run an experiment: targets x scenarios under one load profile, each target warmed until steady, then measured.",
                "The load driver (--driver) and the targets run on CPUs of their own; the results go to results/<run-id>/.",
                "Give an experiment YAML file (see experiments/example.yaml) or describe it with flags."})
public class RunCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "EXPERIMENT",
            description = "Experiment YAML file, or a preset by name or prefix (e.g. seed-003; see ./lab list).")
    Path file;

    @Option(names = "--param", paramLabel = "NAME=VALUE",
            description = "A value the experiment file asks for under params, e.g. jar=PATH for experiments/petclinic.yaml. Repeatable.")
    Map<String, String> params = new LinkedHashMap<>();

    @Mixin
    TargetOptions targets;

    @Mixin
    ScenarioOptions scenarioOptions;

    @Mixin
    LoadOptions load;

    @Mixin
    DriverOptions driver;

    @Mixin
    DesignOptions designOptions;

    @Mixin
    CpuOptions cpuOptions;

    @Mixin
    JvmOptions jvm;

    @Mixin
    DatabaseOptions db;

    @Mixin
    MachineOptions machine;

    @Mixin
    OutputOptions output;

    @Mixin
    RenamedOptions renamed;

    @Spec
    CommandSpec spec;

    private final LabProcesses processes;

    public RunCommand(LabProcesses processes) {
        this.processes = processes;
    }

    @Override
    public Integer call() {
        execute();
        return processes.stopping() ? 130 : 0;
    }

    /** Runs the experiment the arguments describe; its record, as results.json holds it. */
    public RunRecord execute() {
        Experiment experiment = experiment();
        CategoryRules categories = output.categories();
        CpuPlan cpus = cpuOptions.plan();
        LaunchSettings settings = jvm.settings(experiment.limits());
        LimitsCheck.require(experiment.targets(), settings, cpus.target(), jvm.cpus != null, jvm.memory != null, file == null ? null : file.toString());
        LoadDriver loadDriver = driver.driver(experiment.driver(), experiment.inRounds(), experiment.profile() instanceof LoadProfile.Rate);
        try (MachineLock taken = machine.take(spec.name(), spec.commandLine().getOut())) {
            return new Runner(Home.detect(), experiment, Procedure.of(experiment), new Runner.Setup(settings, cpus, db, loadDriver, processes, categories), processes::stopping,
                    spec.commandLine().getOut()).run();
        }
    }

    /** The experiment the arguments describe as the run measures it: in the design that measures it ({@link Experiment#decided}), scaled, with its JVMs. */
    Experiment experiment() {
        ParseResult given = spec.commandLine().getParseResult();
        renamed.refuse(given);
        Experiment experiment = driver.withPlan(adjust(file != null ? fromFile(given) : fromFlags(given)), given, file != null);
        Design chosen = designOptions.design(experiment.design());
        String tooShort = Experiment.thinkProblem(experiment.profile(), chosen);
        if (tooShort != null) {
            throw new UsageException(file != null ? file + ": profile.think: " + tooShort : "--think " + load.think + ": " + tooShort);
        }
        experiment = experiment.toBuilder().design(chosen).build().decided(driver.roundsObstacle(experiment.driver(), experiment.profile() instanceof LoadProfile.Rate));
        if (file == null && load.duration != null && experiment.inRounds()) {
            throw new UsageException("--duration applies to --design sequential; the paired design measures --rounds N blocks of --block TIME");
        }
        if (file == null && load.warmup == null && experiment.inRounds()) {
            experiment = experiment.toBuilder().warmup(Design.DEFAULT_WARMUP).build();
        }
        if (load.scale != null) {
            if (!(load.scale > 0 && load.scale <= 100)) {
                throw new UsageException("--scale " + load.scale + ": expected a factor above 0, e.g. 0.1");
            }
            experiment = experiment.scaled(load.scale);
        }
        if (load.shapeScale != null) {
            if (!(load.shapeScale > 0 && load.shapeScale <= 100)) {
                throw new UsageException("--shape-scale " + load.shapeScale + ": expected a factor above 0, e.g. 0.1");
            }
            experiment = experiment.shapeScaled(load.shapeScale);
        }
        if (load.freshJvms) {
            experiment = experiment.toBuilder().freshJvms(true).build();
        }
        return designOptions.jvms(experiment, file == null);
    }

    /** The flags a subcommand takes beside an experiment file that ./lab run refuses there. */
    List<String> allowedWithFile() {
        return List.of();
    }

    /** What a subcommand adds to the experiment before --scale, --sets and --repeat: a sweep's grid. */
    Experiment adjust(Experiment e) {
        return e;
    }

    private Experiment fromFile(ParseResult given) {
        List<String> flags = new ArrayList<>(ScenarioOptions.FLAGS);
        flags.addAll(LoadOptions.PROFILE_FLAGS);
        flags.addAll(List.of("--targets", "--define", "--name"));
        flags.removeAll(allowedWithFile());
        for (String flag : flags) {
            if (given.hasMatchedOption(flag)) {
                throw new UsageException(flag + " cannot be combined with an experiment file (" + file + "); edit the file instead");
            }
        }
        Path resolved = Presets.resolve(Home.detect(), file);
        Experiment e = ExperimentReader.read(resolved, params, Drivers.ALL);
        return e.toBuilder().warmup(load.warmup == null ? e.warmup() : Flags.duration("--warmup", load.warmup, true))
                .cooldown(load.cooldown == null ? e.cooldown() : Flags.duration("--cooldown", load.cooldown, true)).build();
    }

    private Experiment fromFlags(ParseResult given) {
        if (!params.isEmpty()) {
            throw new UsageException("--param gives a value an experiment file asks for under params; name the file");
        }
        // One scenario by default, because each costs each target its own warmup: a database read (blocking JDBC
        // against R2DBC) where PostgreSQL has CPUs the driver does not use; else json, which needs no support
        // process, since a PostgreSQL on the driver's CPUs starves the driver and the rounds measure it, not the
        // targets (docs/reproducibility.md, "Why the default is json on 2 cores, not items"). Not the gateway:
        // closed-model users over a fixed downstream delay cap every model at the same rate, users / delay;
        // ./lab capacity answers that one.
        List<Scenario> list = scenarioOptions.select(List.of(defaultScenario()));
        String experimentName = output.name != null ? Experiment.checkName(output.name, "--name")
                : String.join("+", list.stream().map(s -> s.isFlow() ? s.name() : s.kind().id()).toList());
        return Experiment.builder(experimentName, targets.select(), list, load.profile(given))
                .warmup(load.warmup == null ? Experiment.DEFAULT_WARMUP : Flags.duration("--warmup", load.warmup, true))
                .cooldown(load.cooldown == null ? Experiment.DEFAULT_COOLDOWN : Flags.duration("--cooldown", load.cooldown, true)).design(Design.DEFAULT).build();
    }

    /** items where the database gets CPUs the driver does not use, else json (see fromFlags). */
    private String defaultScenario() {
        CpuPlan plan = cpuOptions.plan();
        boolean shared = plan.applied() && plan.support().stream().anyMatch(plan.driver()::contains);
        return shared ? "json" : "items";
    }
}
