package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.gate.Gate;
import dev.loomflux.lab.gate.History;
import dev.loomflux.lab.gate.JunitXml;
import dev.loomflux.lab.paired.PairedRounds;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.report.GateSummary;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.sut.Command;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.sut.Targets;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** ./lab ab: a regression gate over two builds of one service in the same paired rounds (docs/ci.md). */
@picocli.CommandLine.Command(name = "ab", mixinStandardHelpOptions = true, sortOptions = false, abbreviateSynopsis = true, modelTransformer = AbCommand.Model.class,
        description = {"Gate a change: measure two builds of one service, base and head, in the same paired rounds and say whether head is slower.",
                "Exits 0 with no regression; 1 with a regression, or statuses that changed; 2 on bad input; 3 when undecided, or when the base"
                        + " differs from itself (its two sets of JVMs, the A/A check).",
                "Writes ab.md and ab-junit.xml beside the run's report (docs/ci.md).",
                "Takes ./lab run's options; an experiment file gives the scenarios and load, and BASE and HEAD may name its targets, or a --define built on one."})
public final class AbCommand extends RunCommand {
    /** The two builds as the run names them, whatever they were given as. */
    static final String BASE = "base";
    static final String HEAD = "head";

    @Parameters(index = "0", paramLabel = "BASE", description = "The base build: a target (mvc, a --define'd one, one of the experiment file's) or a jar file.")
    String baseArg;

    @Parameters(index = "1", paramLabel = "HEAD", description = "The head build, as BASE; the same as BASE for an A/A run.")
    String headArg;

    @Parameters(index = "2", arity = "0..1", paramLabel = "EXPERIMENT", description = "An experiment file or preset: its scenarios and load (default: ./lab run's).")
    Path experimentFile;

    @Option(names = "--margin", paramLabel = "PCT", description = "A regression: head worse by more than this, the whole interval beyond it (the intervals hold 95%% together). Default: 5%%.")
    String margin;

    @Option(names = "--label", paramLabel = "TEXT", description = "What the head is in ./lab history, e.g. a commit. Default: HEAD as given.")
    String label;

    @Option(names = "--ready", paramLabel = "PATH", description = "For a jar: the path that answers 2xx once it serves, e.g. /actuator/health.")
    String ready;

    private final LabProcesses processes;

    public AbCommand(LabProcesses processes) {
        super(processes);
        this.processes = processes;
    }

    @Override
    public Integer call() {
        double marginPct = margin();
        file = experimentFile;
        RunRecord run = execute();
        if (processes.stopping()) {
            return 130;
        }
        for (String build : List.of(BASE, HEAD)) {
            // A build that never served (it did not start, or died before its first block): bad input, as an unknown target is.
            run.results().stream().filter(r -> r.key().target().equals(build) && r.outcome().error() != null && (r.load() == null || r.load().requests() == null))
                    .findFirst().ifPresent(r -> {
                        throw new UsageException((build.equals(BASE) ? "BASE " + given(baseArg) : "HEAD " + given(headArg)) + " did not run: " + r.outcome().error());
                    });
        }
        Gate gate = Gate.of(run, BASE, HEAD, marginPct, PairedRounds.timing(Drivers.ALL.named(run.experiment().driver(), "the run's driver")));
        PrintWriter out = spec.commandLine().getOut();
        gate.checks().forEach(c -> out.println("ab " + c.describe(HEAD + "/" + BASE)));
        gate.aa().forEach(c -> out.println("ab A/A " + c.describe(BASE + Gate.SECOND + "/" + BASE + Gate.FIRST)));
        gate.behaviour().forEach(b -> out.println("ab " + b));
        Path dir = Home.detect().results().resolve(run.header().runId());
        String summary = GateSummary.markdown(gate, run, given(baseArg), given(headArg));
        try {
            Files.writeString(dir.resolve("ab.md"), summary);
            Files.writeString(dir.resolve("ab-junit.xml"), JunitXml.of(gate, run.header().runId()));
            // GitHub Actions shows what a step appends to this file on the run's page.
            String stepSummary = System.getenv("GITHUB_STEP_SUMMARY");
            if (stepSummary != null && !stepSummary.isBlank()) {
                Files.writeString(Path.of(stepSummary), summary, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("ab: writing its summary to " + dir, e);
        }
        History.append(dir.getParent().resolve(History.FILE), new History(run.header().runId(), run.header().finishedAt(), given(baseArg),
                given(headArg), label != null ? label : given(headArg), marginPct, gate.exitCode(), gate.checks(), gate.aa()));
        out.println("ab: " + dir.resolve("ab.md") + ", " + dir.resolve("ab-junit.xml") + "; ./lab history shows it beside the earlier gates");
        out.println(gate.headline());
        out.flush();
        return gate.exitCode();
    }

    /** A build as the summary names it: a target's name, or a jar's file name. */
    private static String given(String arg) {
        return arg.endsWith(".jar") ? String.valueOf(Path.of(arg).getFileName()) : arg;
    }

    private double margin() {
        if (margin == null) {
            return 5;
        }
        String v = margin.endsWith("%") ? margin.substring(0, margin.length() - 1) : margin;
        try {
            double pct = Double.parseDouble(v);
            if (pct > 0 && pct < 100) {
                return pct;
            }
        } catch (NumberFormatException e) {
            // the one-line error below
        }
        throw new UsageException("--margin " + margin + ": expected a percentage above 0 and under 100, e.g. 5%");
    }

    /** The experiment with BASE and HEAD as its two targets, in two or more sets of JVMs: the A/A check compares the base's two. */
    @Override
    Experiment experiment() {
        Experiment e = super.experiment();
        if (!e.inRounds()) {
            throw new UsageException("ab compares the builds in paired rounds, and this experiment is measured one target after another"
                    + " (--design sequential, or a profile or driver the rounds cannot take)");
        }
        if (e.sets() < 2) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--sets")) {
                throw new UsageException("--sets " + e.sets() + ": ab needs 2 or more sets of JVMs, the base's two compared as an A/A check");
            }
            e = e.toBuilder().sets(2).build();
        }
        return e;
    }

    @Override
    Experiment adjust(Experiment e) {
        return e.toBuilder().name(Experiment.checkName("ab-" + e.name(), "the experiment's name")).targets(List.of(build(baseArg, BASE, e), build(headArg, HEAD, e))).build();
    }

    /** A build as a target named {@code as}: a jar, or a built-in, --define'd or experiment file's target (a --define may build on the file's). */
    private TargetSpec build(String given, String as, Experiment e) {
        String what = as.equals(BASE) ? "BASE" : "HEAD";
        if (given.endsWith(".jar")) {
            Path jar = Path.of(given).toAbsolutePath().normalize();
            if (!Files.isRegularFile(jar)) {
                throw new UsageException(what + " " + given + ": no such jar file");
            }
            if (ready == null || !ready.startsWith("/")) {
                throw new UsageException(what + " " + given + " is a jar: give --ready PATH, a path that answers 2xx once it serves (e.g. /actuator/health)");
            }
            return TargetSpec.own(as, new Command(List.of("{java}", "-jar", jar.toString(), "--server.address={host}", "--server.port={port}"), ready, 0,
                    Command.READY_TIMEOUT), List.of());
        }
        Targets known = experimentFile != null ? targets.known(e.targets(), String.valueOf(experimentFile)) : targets.known();
        return known.get(given, what).derive(as, Map.of(), List.of());
    }

    /** A --define builds a build on one of the experiment file's targets, e.g. its jar with a JVM flag more. */
    @Override
    List<String> allowedWithFile() {
        return List.of("--define");
    }

    /** Its help without ./lab run's EXPERIMENT: ab's own three positionals take its place. */
    public static final class Model implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            spec.positionalParameters().stream().filter(p -> p.userObject() instanceof Field f && f.getDeclaringClass() == RunCommand.class).toList()
                    .forEach(spec::remove);
            return new OptionSections().transform(spec);
        }
    }
}
