package dev.loomflux.lab.cli;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.procedure.Procedure;
import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.ExperimentReader;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.ProfileReader;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.MachineLock;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.cpu.CpuPlan;
import dev.loomflux.lab.run.Runner;
import dev.loomflux.lab.stats.Paired;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run an experiment: targets x scenarios under one load profile, driven by Hyperfoil,",
                "with CPU pinning and warmup; writes results/<run-id>/results.json, .hlog files and run.log.",
                "Give an experiment YAML file (see experiments/example.yaml) or describe it with flags."})
public class RunCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "EXPERIMENT",
            description = "Experiment YAML file, or a preset by name or prefix (e.g. seed-003; see ./lab list).")
    Path file;

    @Option(names = "--repeat", paramLabel = "N",
            description = "Paired: N sets of JVMs measured in the same rounds, a winner only where every set shows it (default 2 without a file)."
                    + " Sequential: every target x scenario N times, interleaved and mirrored (A B C C B A ...), each in a fresh JVM; verdicts need N >= 3.")
    Integer repeat;

    @Option(names = "--design", paramLabel = "KIND",
            description = "paired: start every target, warm each, then measure all in interleaved rounds and judge per-round ratios"
                    + " (the default without a file); sequential: one target after another, one window each (a file's default).")
    String design;

    @Option(names = "--rounds", paramLabel = "N", description = "Measured rounds of the paired design. Default: " + Design.DEFAULT_ROUNDS + ".")
    Integer rounds;

    @Option(names = "--block", paramLabel = "TIME", description = "One target's block in a round (paired). Default: 1s.")
    String block;

    @Option(names = "--lead-in", paramLabel = "TIME", description = "Unmeasured load at the start of every block (paired), whole seconds. Default: 0s.")
    String leadIn;

    @Option(names = "--lead-in-rounds", paramLabel = "N", description = "Unmeasured rounds before the measured ones (paired). Default: " + Design.LEAD_IN + ".")
    Integer leadInRounds;

    @Mixin
    DriverOptions driver;

    @Option(names = "--scale", paramLabel = "FACTOR",
            description = "Multiply durations and requests per user (not users), e.g. 0.1 for a quick pass.")
    Double scale;

    @Mixin
    ScenarioOptions scenarioOptions;

    @Option(names = "--profile", paramLabel = "KIND", defaultValue = "fixed",
            description = "Load profile: stages, fixed, loops, burst, rate. Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = {"--users", "--connections"}, paramLabel = "N",
            description = "Concurrent users (fixed, loops, burst); --connections is its older name. Default: 50.")
    Integer users;

    @Option(names = "--duration", paramLabel = "TIME", description = "Measured time (fixed, rate) of the sequential design. Default: 15s.")
    String duration;

    @Option(names = "--requests", paramLabel = "L", description = "Requests per user (loops, burst). Default: 100.")
    Integer requests;

    @Option(names = "--rps", description = "Arrival rate (rate).")
    Integer rps;

    @Option(names = "--max-users", paramLabel = "N", description = "Most requests in flight (rate). Default: max(100, rps).")
    Integer maxUsers;

    @Option(names = "--stages", paramLabel = "TIME:USERS,...", description = "Ramps (stages), e.g. 15s:50,30s:100,15s:150,30s:0.")
    String stages;

    @Option(names = "--think", paramLabel = "TIME[..TIME]",
            description = "Each user's pause after a response before its next request (stages, fixed, loops, burst): 100ms fixed, 1s..3s uniform. Default: none.")
    String think;

    @Option(names = "--warmup", paramLabel = "TIME", description = "Most warmup per target x scenario; warmup ends as soon as the target is steady. Default: 75s paired, 180s sequential.")
    String warmup;

    @Option(names = "--cooldown", paramLabel = "TIME", description = "Pause between targets. Default: 10s.")
    String cooldown;

    @Option(names = "--name", description = "Experiment name (part of the run id). Default: the file name or the scenarios.")
    String name;

    @Mixin
    CpuOptions cpuOptions;

    @Mixin
    TargetOptions targets;

    @Mixin
    JvmOptions jvm;

    @Mixin
    DatabaseOptions db;

    @Mixin
    MachineOptions machine;

    @Spec
    CommandSpec spec;

    private final LabProcesses processes;

    public RunCommand(LabProcesses processes) {
        this.processes = processes;
    }

    @Override
    public Integer call() {
        Experiment experiment = adjust(file != null ? fromFile() : fromFlags());
        Design chosen = design(experiment.design(), file == null && pairedByDefault());
        String tooShort = Experiment.thinkProblem(experiment.profile(), chosen);
        if (tooShort != null) {
            throw new UsageException(file != null ? file + ": profile.think: " + tooShort : "--think " + think + ": " + tooShort);
        }
        experiment = experiment.withDesign(chosen);
        if (file == null && warmup == null && experiment.inRounds()) {
            experiment = experiment.withWarmup(Design.DEFAULT_WARMUP);
        }
        if (scale != null) {
            if (!(scale > 0 && scale <= 100)) {
                throw new UsageException("--scale " + scale + ": expected a factor above 0, e.g. 0.1");
            }
            experiment = experiment.scaled(scale);
        }
        if (repeat != null) {
            experiment = experiment.withRepeat(Flags.repeat(repeat));
        } else if (file == null && experiment.inRounds() && experiment.sweep() == null) {
            experiment = experiment.withRepeat(Design.DEFAULT_SETS);
        }
        CpuPlan cpus = cpuOptions.plan();
        LaunchSettings settings = jvm.settings(experiment.limits());
        LimitsCheck.require(experiment.targets(), settings, cpus.target(), jvm.cpus != null, jvm.memory != null, file == null ? null : file.toString());
        LoadDriver load = driver.driver(experiment.inRounds(), experiment.profile() instanceof Profile.Rate,
                experiment.scenarios().stream().anyMatch(Scenario::isFlow));
        try (MachineLock taken = machine.take(spec.name(), spec.commandLine().getOut())) {
            new Runner(Home.detect(), experiment, settings, cpus, db, load, Procedure.of(experiment), processes, processes::stopping, spec.commandLine().getOut()).run();
        }
        if (processes.stopping()) {
            return 130;
        }
        return 0;
    }

    /** The file's design (or, without a file, the paired one) with what the flags change in it. */
    private Design design(Design fromFile, boolean flagsOnly) {
        String kind = design != null ? design : flagsOnly ? "paired" : fromFile.paired() ? "paired" : "sequential";
        if (!kind.equals("paired") && !kind.equals("sequential")) {
            throw new UsageException("--design " + design + ": expected paired or sequential");
        }
        if (kind.equals("sequential")) {
            if (rounds != null || block != null || leadIn != null || leadInRounds != null) {
                throw new UsageException((rounds != null ? "--rounds" : block != null ? "--block" : leadIn != null ? "--lead-in" : "--lead-in-rounds")
                        + " applies to --design paired only");
            }
            return Design.SEQUENTIAL;
        }
        if (flagsOnly && duration != null) {
            throw new UsageException("--duration applies to --design sequential; the paired design measures --rounds N blocks of --block TIME");
        }
        int n = rounds != null ? rounds : fromFile.paired() ? fromFile.rounds() : Design.DEFAULT_ROUNDS;
        if (n < Paired.MIN_ROUNDS || n > Design.MAX_ROUNDS) {
            throw new UsageException("--rounds " + n + ": expected " + Paired.MIN_ROUNDS + ".." + Design.MAX_ROUNDS
                    + " (fewer than " + Paired.MIN_ROUNDS + " rounds cannot give a 95% interval)");
        }
        Duration b = block != null ? Flags.duration("--block", block, false) : fromFile.paired() ? fromFile.block() : Design.DEFAULT_BLOCK;
        if (b.toMillis() < 1000) {
            throw new UsageException("--block " + block + ": a block must last at least 1s");
        }
        Duration l = leadIn != null ? Flags.duration("--lead-in", leadIn, true) : fromFile.paired() ? fromFile.leadIn() : Design.DEFAULT_LEAD_IN;
        String wrong = Design.leadInProblem(l);
        if (wrong != null) {
            throw new UsageException("--lead-in " + leadIn + ": " + wrong);
        }
        int warm = leadInRounds != null ? leadInRounds : fromFile.paired() ? fromFile.leadInRounds() : Design.LEAD_IN;
        if (warm < 0 || warm > Design.MAX_LEAD_IN_ROUNDS) {
            throw new UsageException("--lead-in-rounds " + warm + ": expected 0.." + Design.MAX_LEAD_IN_ROUNDS);
        }
        return Design.paired(n, b, l, warm);
    }

    /** A sweep stays sequential unless asked (--design paired measures each cell in rounds, docs/sweep.md); run is paired. */
        boolean pairedByDefault() {
        return driver.roundsPossible();
    }

    /** What a subcommand adds to the experiment before --scale and --repeat: a sweep's grid. */
    Experiment adjust(Experiment e) {
        return e;
    }

    private Experiment fromFile() {
        List<String> flags = new ArrayList<>(ScenarioOptions.FLAGS);
        flags.addAll(List.of("--profile", "--users", "--duration", "--requests", "--rps", "--max-users", "--stages", "--think",
                "--targets", "--define", "--name"));
        for (String flag : flags) {
            if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                throw new UsageException(flag + " cannot be combined with an experiment file (" + file + "); edit the file instead");
            }
        }
        Path resolved = Presets.resolve(Home.detect(), file);
        ExperimentReader.ExperimentFile read = ExperimentReader.readFile(resolved);
        Experiment e = read.experiment();
        driver.fromFile(read.driver());
        return new Experiment(e.name(), e.targets(), e.scenarios(), e.profile(),
                warmup == null ? e.warmup() : Flags.duration("--warmup", warmup, true),
                cooldown == null ? e.cooldown() : Flags.duration("--cooldown", cooldown, true), e.repeat(), e.limits(), e.sweep(), e.idle(), e.design());
    }

    private Experiment fromFlags() {
        // The default compares the three models on a database read (blocking JDBC vs R2DBC, pools of 10) where
        // PostgreSQL has CPUs of its own. Where it shares the driver's (2 cores), it starved the driver: in the
        // paired default run 14 of 60 blocks had under 90% of their users in a request, and two runs' mvc/webflux
        // ratios differed by 23%. There the default is json, which needs no support process. One scenario, because
        // each costs each target its own warmup. Not the gateway: 50 closed-model users over a 20 ms downstream cap
        // every model at ~2,300 rps; ./lab capacity answers that one.
        List<Scenario> list = scenarioOptions.select(List.of(defaultScenario()));
        String experimentName = name != null ? Experiment.checkName(name, "--name")
                : String.join("+", list.stream().map(s -> s.kind().id()).toList());
        return new Experiment(experimentName, targets.select(), list, profile(),
                warmup == null ? Experiment.DEFAULT_WARMUP : Flags.duration("--warmup", warmup, true),
                cooldown == null ? Experiment.DEFAULT_COOLDOWN : Flags.duration("--cooldown", cooldown, true), 1);
    }

    /** items where the database gets CPUs the driver does not use, else json (see fromFlags). */
    private String defaultScenario() {
        CpuPlan plan = cpuOptions.plan();
        boolean shared = plan.applied() && plan.support().stream().anyMatch(plan.driver()::contains);
        return shared ? "json" : "items";
    }

    private Profile profile() {
        List<String> fields = ProfileReader.FIELDS.get(profile);
        if (fields != null) {
            only(fields);
        }
        return ProfileReader.read(profile, new ProfileReader.Fields() {
            @Override
            public String text(String field) {
                Object v = switch (field) {
                    case "users" -> users;
                    case "duration" -> duration;
                    case "requests" -> requests;
                    case "rps" -> rps;
                    case "max-users" -> maxUsers;
                    case ProfileReader.THINK -> think;
                    default -> stages;
                };
                return v == null ? null : v.toString();
            }

            @Override
            public List<ProfileReader.Fields> stages() {
                return stagesFields();
            }

            @Override
            public UsageException error(String field, String message) {
                if (field.isEmpty()) {
                    return new UsageException("--profile " + profile + ": " + message);
                }
                String flag = flag(field);
                String given = field.equals("stages") ? stages : text(field);
                return new UsageException(given == null ? flag + ": " + message : flag + " " + given + ": " + message);
            }
        });
    }

    private static String flag(String field) {
        return "--" + field;
    }

    /** {@code 15s:50,30s:100}: each part a stage whose errors name the whole flag. */
    private List<ProfileReader.Fields> stagesFields() {
        if (stages == null) {
            throw new UsageException("--profile stages needs --stages, e.g. 15s:50,30s:100,15s:150,30s:0");
        }
        List<ProfileReader.Fields> out = new ArrayList<>();
        for (String part : stages.split(",")) {
            String[] tu = part.trim().split(":");
            if (tu.length != 2) {
                throw new UsageException("--stages " + stages + ": expected TIME:USERS,... such as 15s:50,30s:100");
            }
            out.add(new ProfileReader.Fields() {
                @Override
                public String text(String field) {
                    return field.equals("duration") ? tu[0].trim() : tu[1].trim();
                }

                @Override
                public List<ProfileReader.Fields> stages() {
                    return List.of();
                }

                @Override
                public UsageException error(String field, String message) {
                    return new UsageException("--stages " + stages + ": " + field + " '" + text(field) + "': " + message);
                }
            });
        }
        return out;
    }

    /** Flags that belong to another profile are an error, not silently ignored. */
    private void only(List<String> fields) {
        List<String> allowed = fields.stream().map(RunCommand::flag).toList();
        for (String flag : List.of("--users", "--duration", "--requests", "--rps", "--max-users", "--stages")) {
            if (!allowed.contains(flag) && spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                throw new UsageException(flag + " does not apply to --profile " + profile + " (it takes " + String.join(", ", allowed) + ")");
            }
        }
    }
}
