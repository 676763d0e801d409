package dev.loomflux.lab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a scenario that is a flow ({@code - flow: NAME} with its steps) or a mix of flows ({@code - mix: NAME}
 * with weighted flows) from an experiment file, as experiments/example.yaml describes. Everything a run
 * would trip over is refused here, before anything starts, in one line naming the file, the flow and the
 * step: an unknown method, a variable that nothing defines before the step uses it, a body file that is
 * missing, a JSON path the drivers cannot both read, a bad weight.
 */
final class FlowReader {
    /** Flow and step names name statistics, .hlog files and JMeter labels. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,40}");
    /** An HTTP header's name: RFC 9110's token. */
    private static final Pattern HEADER = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}");
    private static final Set<String> FLOW = Set.of("flow", "seed", "data", "steps");
    private static final Set<String> IN_MIX = Set.of("flow", "weight", "data", "steps");
    private static final Set<String> MIX = Set.of("mix", "seed", "flows");
    private static final Set<String> STEP = Set.of("name", "method", "path", "headers", "body", "expect", "extract", "think");
    private static final String CSV = "csv";
    /** A body goes as JSON unless the step's headers say otherwise. */
    private static final String CONTENT_TYPE = "Content-Type";
    private static final long MAX_PATH = 500;
    public static final long DEFAULT_SEED = 1;

    private FlowReader() {
    }

    /** Whether a scenario entry is a flow or a mix rather than a built-in scenario. */
    static boolean isFlow(Node entry) {
        return entry.isObject() && (!entry.get("flow").isMissing() || !entry.get("mix").isMissing());
    }

    /** @param dir where files named in the entry are (the experiment file's directory) */
    static Mix read(Node entry, Path dir) {
        if (!entry.get("mix").isMissing()) {
            return mix(entry.only(MIX), dir);
        }
        entry.only(FLOW);
        Flow flow = flow(entry, dir, "flow", null);
        return new Mix(flow.name(), seed(entry), List.of(flow));
    }

    private static Mix mix(Node entry, Path dir) {
        String name = name(entry.get("mix"), "mix");
        List<Flow> flows = new ArrayList<>();
        List<Node> nodes = entry.get("flows").list();
        if (nodes.size() < 2) {
            throw entry.get("flows").error("mix " + name + ": give at least two flows, each with its weight (a single flow is written - flow: NAME)");
        }
        for (Node f : nodes) {
            flows.add(flow(f.only(IN_MIX), dir, "mix " + name + ", flow", name));
        }
        Map<String, String> owners = new HashMap<>();
        // The mix's name too: results name a mix's flow and step after it (shop/browse/list), and a flow named as its mix would read as the mix.
        owners.put(name, "the mix");
        for (int i = 0; i < flows.size(); i++) {
            Node where = nodes.get(i);
            claim(owners, flows.get(i).name(), "flow " + flows.get(i).name(), where.get("flow"), name);
            for (int j = 0; j < flows.get(i).steps().size(); j++) {
                String step = flows.get(i).steps().get(j).name();
                claim(owners, step, "step " + step + " of flow " + flows.get(i).name(), where.get("steps").list().get(j).get("name"), name);
            }
        }
        return new Mix(name, seed(entry), flows);
    }

    /** Names are the statistics' names: no two flows or steps of a mix share one, nor one with the mix. */
    private static void claim(Map<String, String> owners, String name, String owner, Node where, String mix) {
        String before = owners.putIfAbsent(name, owner);
        if (before != null) {
            throw where.error("mix " + mix + ": '" + name + "' names " + before + " already; every flow and step needs a name of its own (it names their statistics)");
        }
    }

    private static long seed(Node entry) {
        return entry.get("seed").isMissing() ? DEFAULT_SEED : entry.get("seed").whole(0, Long.MAX_VALUE);
    }

    private static String name(Node node, String what) {
        if (node.isMissing() || !node.isText() || !NAME.matcher(node.text()).matches()) {
            throw node.error("expected the " + what + "'s name: letters, digits, '_' or '-' (at most 40), got '" + node.raw() + "'");
        }
        return node.text();
    }

    /** @param mix the mix's name when the flow is one of its flows, else null */
    private static Flow flow(Node f, Path dir, String label, String mix) {
        String name = name(f.get("flow"), "flow");
        String where = label + " " + name;
        int weight = 1;
        if (mix != null) {
            Node w = f.get("weight");
            if (w.isMissing() || !w.isIntegral() || w.whole(Long.MIN_VALUE, Long.MAX_VALUE) < 1 || w.whole(Long.MIN_VALUE, Long.MAX_VALUE) > Flow.MAX_WEIGHT) {
                throw w.error(where + ": weight must be a whole number in 1.." + Flow.MAX_WEIGHT + " (its share of the iterations), got '"
                        + w.raw() + "'");
            }
            weight = (int) w.whole(1, Flow.MAX_WEIGHT);
        }
        Node dataNode = f.get("data");
        FlowCsv csv = dataNode.isMissing() || dataNode.get(CSV).isMissing() ? null : csv(dataNode.get(CSV), dir, where);
        Map<String, FlowData> data = data(dataNode, csv, where);
        Node stepsNode = f.get("steps");
        List<Node> stepNodes = stepsNode.list();
        if (stepNodes.isEmpty()) {
            throw stepsNode.error(where + ": give at least one step");
        }
        Set<String> known = new LinkedHashSet<>(data.keySet());
        Set<String> names = new LinkedHashSet<>();
        List<FlowStep> steps = new ArrayList<>();
        for (Node s : stepNodes) {
            FlowStep step = step(s.only(STEP), dir, where, known, known);
            if (!names.add(step.name()) || step.name().equals(name)) {
                throw s.get("name").error(where + ": '" + step.name() + "' names " + (step.name().equals(name) ? "the flow" : "another step")
                        + " already; every step needs a name of its own (it names the step's statistics)");
            }
            step.extract().forEach(x -> known.add(x.var()));
            steps.add(step);
        }
        return new Flow(name, weight, steps, data, csv);
    }

    /** {@code price: {uniform: [100, 10000]}}, {@code n: unique}, and {@code csv: {file: F, per: user}} whose header names variables. */
    private static Map<String, FlowData> data(Node node, FlowCsv csv, String where) {
        Map<String, FlowData> out = new LinkedHashMap<>();
        if (node.isMissing()) {
            return out;
        }
        if (!node.isObject()) {
            throw node.error(where + ": expected data as a mapping of variable to values, e.g. {price: {uniform: [100, 10000]}, n: unique}");
        }
        for (String var : node.keys()) {
            if (var.equals(CSV)) {
                continue;
            }
            Node v = node.get(var);
            if (!Template.NAME.matcher(var).matches()) {
                throw v.error(where + ": '" + var + "' is not a variable name: a letter, then letters, digits or '_' (at most 40)");
            }
            if (v.isText() && v.text().equals("unique")) {
                out.put(var, new FlowData.Unique());
            } else if (v.isObject() && !v.get("uniform").isMissing()) {
                v.only(Set.of("uniform"));
                List<Node> range = v.get("uniform").list();
                if (range.size() != 2) {
                    throw v.get("uniform").error(where + ": expected [min, max], e.g. [100, 10000]");
                }
                long min = range.get(0).whole(Long.MIN_VALUE / 4, Long.MAX_VALUE / 4);
                long max = range.get(1).whole(Long.MIN_VALUE / 4, Long.MAX_VALUE / 4);
                if (min > max) {
                    throw v.get("uniform").error(where + ": " + min + " > " + max + ": give [min, max]");
                }
                out.put(var, new FlowData.Uniform(min, max));
            } else {
                throw v.error(where + ": expected {uniform: [min, max]} or unique");
            }
        }
        if (csv != null) {
            for (int i = 0; i < csv.columns().size(); i++) {
                String column = csv.columns().get(i);
                if (out.put(column, new FlowData.Column(i)) != null) {
                    throw node.get(CSV).error(where + ": the CSV's column " + column + " is a data variable already");
                }
            }
        }
        return out;
    }

    private static FlowCsv csv(Node node, Path dir, String where) {
        node.only(Set.of("file", "per"));
        Node fileNode = node.get("file");
        Path file = dir.resolve(fileNode.text()).normalize();
        String perText = node.get("per").text("iteration");
        FlowCsv.Per per = Arrays.stream(FlowCsv.Per.values()).filter(p -> p.name().equalsIgnoreCase(perText)).findFirst()
                .orElseThrow(() -> node.get("per").error(where + ": expected user (a row per user) or iteration (a row per iteration), not '" + perText + "'"));
        try {
            return FlowCsv.read(file, per);
        } catch (IOException e) {
            throw fileNode.error(where + ": cannot read the CSV file " + file + " (" + (Files.exists(file) ? e.getMessage().lines().findFirst().orElse("") : "no such file")
                    + ")");
        } catch (IllegalArgumentException e) {
            throw fileNode.error(where + ": " + e.getMessage());
        }
    }

    /**
     * @param known what the step can use: the flow's data and what earlier steps extracted, which it may not extract
     *              again (a response without the value would leave the earlier one in place)
     */
    private static FlowStep step(Node s, Path dir, String flow, Set<String> known, Set<String> taken) {
        String name = s.get("name").isMissing() ? null : s.get("name").text();
        if (name == null || !NAME.matcher(name).matches()) {
            throw s.get("name").error(flow + ": expected the step's name (it names its statistics): letters, digits, '_' or '-' (at most 40)"
                    + (name == null ? "" : ", got '" + name + "'"));
        }
        String where = flow + ", step " + name;
        String methodText = s.get("method").text("GET");
        FlowStep.Method method = Arrays.stream(FlowStep.Method.values()).filter(m -> m.name().equals(methodText.toUpperCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> s.get("method").error(where + ": unknown method '" + methodText + "' (allowed: "
                        + Arrays.stream(FlowStep.Method.values()).map(Enum::name).collect(Collectors.joining(", ")) + ")"));
        Node pathNode = s.get("path");
        String path = pathNode.isMissing() ? null : pathNode.text();
        if (path == null || !path.startsWith("/") || path.length() > MAX_PATH || path.chars().anyMatch(c -> c <= ' ')) {
            throw pathNode.error(where + ": expected a path that starts with '/', has no spaces and at most " + MAX_PATH + " characters, e.g. /items/${id}"
                    + (path == null ? "" : ", got '" + path + "'"));
        }
        uses(pathNode, path, where + ": path", known);
        Map<String, String> headers = new LinkedHashMap<>(s.get("headers").stringMap());
        for (Map.Entry<String, String> h : headers.entrySet()) {
            if (!HEADER.matcher(h.getKey()).matches()) {
                throw s.get("headers").get(h.getKey()).error(where + ": '" + h.getKey() + "' is not a header name");
            }
            uses(s.get("headers").get(h.getKey()), h.getValue(), where + ": header " + h.getKey(), known);
        }
        Node bodyNode = s.get("body");
        String body = null;
        String bodyFile = null;
        if (!bodyNode.isMissing()) {
            if (method == FlowStep.Method.GET) {
                throw bodyNode.error(where + ": a GET sends no body");
            }
            if (bodyNode.isObject()) {
                bodyNode.only(Set.of("file"));
                bodyFile = bodyNode.get("file").text();
                Path file = dir.resolve(bodyFile).normalize();
                try {
                    body = Files.readString(file);
                } catch (IOException e) {
                    throw bodyNode.get("file").error(where + ": cannot read the body file " + file + " ("
                            + (Files.exists(file) ? e.getMessage() : "no such file") + ")");
                }
            } else {
                body = bodyNode.text();
            }
            uses(bodyNode, body, where + ": body", known);
            if (headers.keySet().stream().noneMatch(h -> h.equalsIgnoreCase(CONTENT_TYPE))) {
                headers.put(CONTENT_TYPE, "application/json");
            }
        }
        return new FlowStep(name, method, path, headers, body, bodyFile, expect(s.get("expect"), where), extract(s.get("extract"), where, taken),
                s.get("think").isMissing() ? Think.NONE : Think.parse(s.get("think").text(), m -> s.get("think").error(where + ": " + m)));
    }

    /** Every variable the template uses is known by then. */
    private static void uses(Node where, String template, String what, Set<String> known) {
        Set<String> used;
        try {
            used = Template.variables(template);
        } catch (IllegalArgumentException e) {
            throw where.error(what + ": " + e.getMessage());
        }
        for (String v : used) {
            if (!known.contains(v)) {
                throw where.error(what + " uses ${" + v + "}, which no earlier step extracts and no data defines"
                        + (known.isEmpty() ? "" : " (known here: " + String.join(", ", known) + ")"));
            }
        }
    }

    /** {@code 201}, or a class of statuses: {@code 2xx}, {@code 3xx}; a success, since a 4xx or 5xx is an error. */
    private static FlowStep.Expect expect(Node node, String where) {
        if (node.isMissing()) {
            return FlowStep.Expect.SUCCESS;
        }
        String text = node.text();
        if (text.matches("[23]xx")) {
            int base = (text.charAt(0) - '0') * 100;
            return new FlowStep.Expect(base, base + 99);
        }
        if (text.matches("[23][0-9][0-9]")) {
            int status = Integer.parseInt(text);
            return new FlowStep.Expect(status, status);
        }
        throw node.error(where + ": expect a status of 200..399 (e.g. 201) or a class (2xx, 3xx), not '" + text + "': a 4xx or 5xx always counts as an error");
    }

    /** {@code {id: $.id, where: {header: Location}}}. */
    private static List<FlowStep.Extract> extract(Node node, String where, Set<String> taken) {
        List<FlowStep.Extract> out = new ArrayList<>();
        if (node.isMissing()) {
            return out;
        }
        if (!node.isObject()) {
            throw node.error(where + ": expected extract as a mapping of variable to a JSON path or {header: NAME}, e.g. {id: $.id}");
        }
        for (String var : node.keys()) {
            Node from = node.get(var);
            if (!Template.NAME.matcher(var).matches()) {
                throw from.error(where + ": '" + var + "' is not a variable name: a letter, then letters, digits or '_' (at most 40)");
            }
            if (taken.contains(var)) {
                throw from.error(where + ": extract " + var + ": " + var + " is a data variable or an earlier step's value already; give the value another name");
            }
            if (from.isObject()) {
                from.only(Set.of("header"));
                String header = from.get("header").text();
                if (!HEADER.matcher(header).matches()) {
                    throw from.get("header").error(where + ": extract " + var + ": '" + header + "' is not a header name");
                }
                out.add(new FlowStep.Extract(var, FlowStep.Extract.Source.HEADER, header));
            } else {
                String path = from.text();
                if (!JsonPath.valid(path)) {
                    throw from.error(where + ": extract " + var + ": '" + path + "' is not a JSON path both drivers read: $ then fields and indexes,"
                            + " e.g. $.id or $.items[0].id (no wildcards, filters or ..)");
                }
                out.add(new FlowStep.Extract(var, FlowStep.Extract.Source.JSON, path));
            }
        }
        return out;
    }
}
