package dev.loomflux.lab.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.target.TargetSpec;
import dev.loomflux.lab.target.Targets;
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
    private static final Set<String> TOP = Set.of("name", "targets", "scenarios", "profile", "warmup", "cooldown");

    private ExperimentReader() {
    }

    public static Experiment read(Path file) {
        String source = file.toString();
        JsonNode json;
        try {
            json = YAML.readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new UsageException(source + ": not valid YAML at line " + e.getLocation().getLineNr() + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UsageException(source + ": cannot read (" + e.getMessage() + ")");
        }
        Node root = new Node(source, "", json).only(TOP);
        String fileName = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        String name = root.get("name").text(fileName);
        return new Experiment(name, targets(root.get("targets")), scenarios(root.get("scenarios")), profile(root.get("profile")),
                root.get("warmup").duration(Experiment.DEFAULT_WARMUP), root.get("cooldown").duration(Experiment.DEFAULT_COOLDOWN));
    }

    private static List<TargetSpec> targets(Node node) {
        Targets known = new Targets();
        List<String> names = new ArrayList<>();
        for (Node t : node.list()) {
            if (t.isText()) {
                names.add(t.text());
                continue;
            }
            t.only(Set.of("name", "base", "properties", "jvm-args"));
            String name = t.get("name").text();
            known.define(name, t.get("base").text(), t.get("properties").stringMap(), t.get("jvm-args").stringList(), t.where());
            names.add(name);
        }
        return known.select(names, node.where());
    }

    static List<Scenario> scenarios(Node node) {
        List<Scenario> out = new ArrayList<>();
        for (Node s : node.list()) {
            if (s.isText()) {
                out.add(scenario(s, s.text(), null));
            } else {
                Map.Entry<String, Node> e = s.single();
                out.add(scenario(e.getValue(), e.getKey(), e.getValue()));
            }
        }
        if (out.isEmpty()) {
            throw node.error("name at least one scenario");
        }
        return out;
    }

    private static Scenario scenario(Node where, String id, Node params) {
        Map<String, Integer> given = new LinkedHashMap<>();
        if (params != null && !params.isMissing()) {
            if (!params.isObject()) {
                throw params.error("expected parameters as a mapping, e.g. {delay: 20}");
            }
            for (String p : params.keys()) {
                given.put(p, params.get(p).integer(Integer.MIN_VALUE, Integer.MAX_VALUE));
            }
        }
        return Scenario.of(id, given, true, where.where());
    }

    static Profile profile(Node node) {
        if (node.isMissing()) {
            throw node.error("missing; one of stages, fixed, loops, burst, rate");
        }
        Map.Entry<String, Node> e = node.single();
        Node p = e.getValue();
        switch (e.getKey()) {
            case "stages":
                List<Profile.Stage> stages = new ArrayList<>();
                for (Node s : p.list()) {
                    s.only(Set.of("duration", "users"));
                    stages.add(new Profile.Stage(positive(s.get("duration")), s.get("users").integer(0, Limits.MAX_USERS)));
                }
                if (stages.isEmpty()) {
                    throw p.error("name at least one stage");
                }
                return new Profile.Stages(stages);
            case "fixed":
                p.only(Set.of("users", "duration"));
                return new Profile.Fixed(p.get("users").integer(1, Limits.MAX_USERS), positive(p.get("duration")));
            case "loops":
                p.only(Set.of("users", "requests"));
                return new Profile.Loops(p.get("users").integer(1, Limits.MAX_USERS), p.get("requests").integer(1, Limits.MAX_REQUESTS_PER_USER));
            case "burst":
                p.only(Set.of("users", "requests"));
                return new Profile.Burst(p.get("users").integer(1, Limits.MAX_USERS), p.get("requests").integer(1, Limits.MAX_REQUESTS_PER_USER));
            case "rate":
                p.only(Set.of("rps", "duration", "max-users"));
                int rps = p.get("rps").integer(1, Limits.MAX_RPS);
                return new Profile.Rate(rps, positive(p.get("duration")), p.get("max-users").integer(1, Limits.MAX_USERS, Limits.defaultMaxUsers(rps)));
            default:
                throw node.get(e.getKey()).error("unknown profile (allowed: stages, fixed, loops, burst, rate)");
        }
    }

    private static Duration positive(Node n) {
        Duration d = n.duration();
        if (d.isZero()) {
            throw n.error("must be longer than 0");
        }
        return d;
    }

    /** The duration syntax of experiment files, for flags too. */
    public static Duration duration(String text, java.util.function.Function<String, UsageException> errors) {
        return Node.parseDuration(text, errors);
    }
}
