package dev.loomflux.lab.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.target.TargetSpec;
import dev.loomflux.lab.target.Targets;
import dev.loomflux.targets.Param;
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
        Scenario.Kind kind = null;
        for (Scenario.Kind k : Scenario.Kind.values()) {
            if (k.id().equals(id)) {
                kind = k;
            }
        }
        if (kind == null) {
            throw where.error("unknown scenario '" + id + "' (allowed: plaintext, json, gateway, chain, items, cpu)");
        }
        if (params != null && !params.isMissing()) {
            params.only(Set.of(kind.params()));
        }
        Map<String, Integer> values = new LinkedHashMap<>();
        for (String p : kind.params()) {
            Param param = Param.valueOf(p.toUpperCase());
            Node v = params == null ? new Node("", "", null) : params.get(p);
            values.put(p, v.isMissing() ? Scenario.DEFAULTS.get(p) : v.integer(param.min(), param.max()));
        }
        return new Scenario(kind, values);
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
}
