package dev.loomflux.lab.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.stats.Paired;
import dev.loomflux.lab.sut.TargetSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads an experiment YAML file (see experiments/example.yaml), naming file and field on any error. */
public final class ExperimentReader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> TOP = Set.of("name", "targets", "scenarios", "profile", "warmup", "cooldown", "repeat", "sets", "limits", "sweep", "design", "rounds",
            "block", "lead-in", "lead-in-rounds", "fixed-rounds", "time", "driver", "params", "shape-scale", "fresh-jvms");

    private ExperimentReader() {
    }

    /**
     * The experiment a file describes, in the design it names or else the default (which the run decides on,
     * {@link Experiment#decided}), with the load driver it asks for (the flags can choose another for it).
     *
     * @param drivers the drivers a file may name (the registry's, drivers.Drivers)
     */
    public static Experiment read(Path file, DriverCatalog<?> drivers) {
        return read(file, Map.of(), drivers);
    }

    /** @param params the values of the file's {@code params} ({@code --param NAME=VALUE}) */
    public static Experiment read(Path file, Map<String, String> params, DriverCatalog<?> drivers) {
        Node root = root(file);
        DriverChoice driver = DriverReader.read(root.get("driver"), file, drivers);
        Experiment e = experiment(root, file, driver, TargetReader.params(root.get("params"), params));
        boolean inRounds = e.decided(driver.roundsObstacle(drivers, e.profile() instanceof LoadProfile.Rate)).inRounds();
        refuseOtherDesignsWord(root, inRounds);
        return e.toBuilder().driver(driver).sets(jvms(root.get("sets"))).repeats(jvms(root.get("repeat"))).build();
    }

    /** @param driver the file's driver, whose plan of the user's own ({@link DriverChoice#plan()}), if any, is its scenario */
    private static Experiment experiment(Node root, Path file, DriverChoice driver, Map<String, String> params) {
        Path plan = driver.plan();
        String fileName = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        Node nameNode = root.get("name");
        String name = nameNode.isMissing() ? Experiment.nameFrom(fileName) : Experiment.checkName(nameNode.text(), nameNode.where());
        List<TargetSpec> targets = TargetReader.targets(root.get("targets"), params);
        if (plan != null && !root.get("scenarios").isMissing()) {
            throw root.get("scenarios").error("the plan of " + "driver." + driver.name() + ".plan" + " sends the requests; remove scenarios");
        }
        List<Scenario> scenarios = plan != null ? List.of(Scenario.plan(plan.getFileName().toString()))
                : scenarios(root.get("scenarios"), file.toAbsolutePath().getParent());
        LoadProfile profile = profile(root.get("profile"));
        if (plan != null && (!(profile instanceof LoadProfile.Fixed fixed) || !fixed.think().none())) {
            throw root.get("profile").error("the plan of " + "driver." + driver.name() + ".plan" + " runs under the fixed profile without think: the lab gives it users and"
                    + " duration, its own timers are its pauses");
        }
        String iterations = Experiment.flowProblem(scenarios, profile);
        if (iterations != null) {
            throw root.get("profile").error(iterations);
        }
        Design design = design(root);
        String tooShort = Experiment.thinkProblem(profile, design);
        if (tooShort != null) {
            throw root.get("profile").get(LoadProfileReader.THINK).error(tooShort);
        }
        Experiment e = Experiment.builder(name, targets, scenarios, profile).warmup(root.get("warmup").duration(Experiment.DEFAULT_WARMUP))
                .cooldown(root.get("cooldown").duration(Experiment.DEFAULT_COOLDOWN)).limits(TargetReader.limits(root.get("limits"))).design(design)
                .freshJvms(root.get("fresh-jvms").flag(false)).build();
        if (!root.get("shape-scale").isMissing()) {
            e = e.shapeScaled(root.get("shape-scale").positive(100));
        }
        Node sweep = root.get("sweep");
        if (sweep.isMissing()) {
            return e;
        }
        Sweep grid = sweep(sweep);
        try {
            grid.check(e);
            return e.toBuilder().sweep(grid).build();
        } catch (UsageException x) {
            throw sweep.error(x.getMessage().replaceFirst("^sweep: ", ""));
        }
    }

    private static Node root(Path file) {
        String source = file.toString();
        JsonNode json;
        try {
            json = YAML.readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new UsageException(source + ": not valid YAML at line " + e.getLocation().getLineNr() + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UsageException(source + ": cannot read (" + e.getMessage() + ")");
        }
        return new Node(source, "", json).only(TOP);
    }

    /**
     * How many JVMs of each target: {@code sets} of the paired design, measured in the same rounds, or
     * {@code repeat}s of the sequential one, one after another. A file that gives the other design's word is
     * refused with the right one: repeats where the file is measured in rounds, its design paired by name or by default.
     *
     * @param inRounds whether the file, in the design that measures it ({@link Experiment#decided}), is measured in rounds
     */
    private static void refuseOtherDesignsWord(Node root, boolean inRounds) {
        Node repeat = root.get("repeat");
        Node sets = root.get("sets");
        if (inRounds && !repeat.isMissing()) {
            throw repeat.error("applies to design: sequential; the paired design's JVM sets are sets: " + repeat.text());
        }
        if (!inRounds && !sets.isMissing()) {
            throw sets.error("sets are the paired design's (a fixed or rate profile); this experiment measures one target after another: write repeat: "
                    + sets.text());
        }
    }

    /** The file's {@code sets} or {@code repeat}: 1 unless it says. */
    private static int jvms(Node count) {
        return count.integer(1, LoadBounds.MAX_REPEAT, 1);
    }

    /**
     * {@code design: paired} with {@code rounds}, {@code block} and {@code lead-in}, or {@code design: sequential}. A file that
     * names none takes the default, paired with those settings, which gives way where it cannot measure the file ({@link Experiment#decided}).
     */
    static Design design(Node root) {
        Node kind = root.get("design");
        String k = kind.text("paired");
        if (!k.equals("paired") && !k.equals("sequential")) {
            throw kind.error("expected paired or sequential, not '" + k + "'");
        }
        if (k.equals("sequential")) {
            for (String key : List.of("rounds", "block", "lead-in", "lead-in-rounds", "fixed-rounds", "time")) {
                if (!root.get(key).isMissing()) {
                    throw root.get(key).error("applies to design: paired only");
                }
            }
            return Design.SEQUENTIAL;
        }
        Duration block = root.get("block").duration(Design.DEFAULT_BLOCK);
        if (block.toMillis() < 1000) {
            throw root.get("block").error("a block must last at least 1s");
        }
        Duration leadIn = root.get("lead-in").duration(Design.DEFAULT_LEAD_IN);
        String wrong = Design.leadInProblem(leadIn);
        if (wrong != null) {
            throw root.get("lead-in").error(wrong);
        }
        Duration budget = root.get("time").isMissing() ? null : root.get("time").duration();
        if (budget != null && budget.isZero()) {
            throw root.get("time").error("must be longer than 0");
        }
        Design paired = Design.paired(root.get("rounds").integer(Paired.MIN_ROUNDS, Design.MAX_ROUNDS, Design.DEFAULT_ROUNDS), block, leadIn,
                root.get("lead-in-rounds").integer(0, Design.MAX_LEAD_IN_ROUNDS, Design.LEAD_IN)).stopping(root.get("fixed-rounds").flag(false), budget);
        return kind.isMissing() ? paired.byDefault() : paired;
    }

    /** {@code sweep: {users: [10, 100], delay: [0, 20], cell-warmup: 60s}}: one or two axes, each a parameter and its values. */
    private static Sweep sweep(Node node) {
        if (!node.isObject()) {
            throw node.error("expected a mapping of parameters to lists of values, e.g. {users: [10, 100], delay: [0, 20]}");
        }
        List<Sweep.Axis> axes = new ArrayList<>();
        for (String key : node.keys()) {
            if (key.equals("cell-warmup")) {
                continue;
            }
            Node values = node.get(key);
            axes.add(Sweep.axis(key, values.list().stream().map(v -> v.integer(Integer.MIN_VALUE, Integer.MAX_VALUE)).toList(), values.where()));
        }
        if (axes.isEmpty() || axes.size() > Sweep.MAX_AXES) {
            throw node.error("vary 1 or " + Sweep.MAX_AXES + " parameters, not " + axes.size());
        }
        try {
            return new Sweep(axes, node.get("cell-warmup").duration(Sweep.DEFAULT_CELL_WARMUP));
        } catch (UsageException x) {
            throw node.error(x.getMessage().replaceFirst("^sweep: ", ""));
        }
    }

    /** @param dir where the files a flow names are: the experiment file's directory */
    static List<Scenario> scenarios(Node node, Path dir) {
        List<Scenario> out = new ArrayList<>();
        for (Node s : node.list()) {
            Scenario next;
            if (FlowReader.isFlow(s)) {
                next = Scenario.flow(FlowReader.read(s, dir));
            } else if (s.isText()) {
                next = scenario(s, s.text(), null);
            } else {
                Map.Entry<String, Node> e = s.single();
                next = scenario(e.getValue(), e.getKey(), e.getValue());
            }
            // A flow's name is its results' name: it must not pass for another scenario's.
            if ((next.isFlow() || out.stream().anyMatch(Scenario::isFlow)) && out.stream().anyMatch(o -> o.name().equals(next.name()))) {
                throw s.error("another scenario is named " + next.name() + " already; give each flow a name of its own (it names its results)");
            }
            out.add(next);
        }
        if (out.isEmpty()) {
            throw node.error("name at least one scenario");
        }
        return out;
    }

    private static Scenario scenario(Node where, String id, Node params) {
        if (id.equals(Scenario.Endpoint.PATH.id())) {
            if (params == null || !params.isText()) {
                throw where.error("expected the path to load, e.g. {path: /hello}");
            }
            return Scenario.custom(params.text(), where.where());
        }
        Map<String, Integer> given = new LinkedHashMap<>();
        String dist = null;
        if (params != null && !params.isMissing()) {
            if (!params.isObject()) {
                throw params.error("expected parameters as a mapping, e.g. {delay: 20}");
            }
            for (String p : params.keys()) {
                if (p.equals("dist")) {
                    dist = params.get(p).text();
                } else {
                    given.put(p, params.get(p).integer(Integer.MIN_VALUE, Integer.MAX_VALUE));
                }
            }
        }
        return Scenario.of(id, given, dist, true, where.where());
    }

    static LoadProfile profile(Node node) {
        if (node.isMissing()) {
            throw node.error("missing; one of " + LoadProfileReader.KINDS);
        }
        List<String> kinds = node.isObject() ? node.keys().stream().filter(k -> !k.equals(LoadProfileReader.THINK)).toList() : List.of();
        if (kinds.size() != 1) {
            throw node.error("expected exactly one of " + LoadProfileReader.KINDS + ", and optionally think");
        }
        String kind = kinds.get(0);
        Node p = node.get(kind);
        LoadProfileReader.RENAMED.forEach((old, now) -> {
            if (!p.get(old).isMissing()) {
                throw p.get(old).error("is now " + now);
            }
        });
        List<String> fields = LoadProfileReader.FIELDS.get(kind);
        if (fields != null && !kind.equals("stages")) {
            p.only(Set.copyOf(fields));
        }
        return LoadProfileReader.read(kind, fields(p, node.get(LoadProfileReader.THINK)));
    }

    /** @param think the profile's think field, beside its kind ({@code profile.think}) */
    private static LoadProfileReader.Fields fields(Node p, Node think) {
        return new LoadProfileReader.Fields() {
            @Override
            public String text(String field) {
                Node n = field.equals(LoadProfileReader.THINK) ? think : p.get(field);
                return n.isMissing() ? null : n.text();
            }

            @Override
            public List<LoadProfileReader.Fields> stages() {
                List<LoadProfileReader.Fields> out = new ArrayList<>();
                for (Node s : p.list()) {
                    s.only(Set.of("duration", "users"));
                    out.add(fields(s, think));
                }
                return out;
            }

            @Override
            public UsageException error(String field, String message) {
                Node n = field.equals(LoadProfileReader.THINK) ? think : field.isEmpty() || field.equals("stages") ? p : p.get(field);
                return n.error(message);
            }
        };
    }

    /** The duration syntax of experiment files, for flags too. */
    public static Duration duration(String text, java.util.function.Function<String, UsageException> errors) {
        return Node.parseDuration(text, errors);
    }
}
