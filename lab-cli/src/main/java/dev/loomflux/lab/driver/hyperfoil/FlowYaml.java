package dev.loomflux.lab.driver.hyperfoil;

import static dev.loomflux.lab.driver.hyperfoil.BenchmarkYaml.quote;

import dev.loomflux.lab.driver.FlowMetrics;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowData;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.JsonPath;
import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.Think;
import java.util.Locale;
import java.util.Map;

/**
 * A user's iteration of flows as a Hyperfoil scenario. The iteration starts with {@link FlowIterationStep}, which
 * picks the flow, sets its data and notes the time; a flow is a sequence of its steps that ends with
 * {@link FlowRecordStep}, which records each iteration that went through every step under the flow's name, from its
 * first send to its last response. Each step is an {@code httpRequest} recording under the step's name, that counts its exact statuses,
 * checks the one it expects and stops the session on any other (or on a connection error or a timeout): the user's
 * next iteration starts over. A value the step extracts is checked after the response; a response without it breaks
 * the sequence and counts once under {@link FlowMetrics#missing}. A single flow runs in the iteration's own sequence;
 * a mix's flows each in a sequence of their own, started by the iteration.
 */
final class FlowYaml {
    /** The initial sequence of a mix's iterations: no flow is named so, since flow names hold no '.'. */
    static final String ITERATION = "loomflux.iteration";

    private FlowYaml() {
    }

    /**
     * The scenario's body under {@code scenario:}, at {@code indent}.
     *
     * @param authority host:port of the requests' target when the benchmark has several, else null
     * @param think     the pause after each iteration (the profile's)
     * @param users     the sessions one target's load has
     * @param inLab     with the lab's handler of {@code Connection: close} ({@link ConnectionClose})
     */
    static void scenario(StringBuilder y, String indent, LoadSpec spec, String authority, Think think, int users, boolean inLab) {
        Mix mix = spec.mix();
        boolean single = mix.flows().size() == 1;
        y.append(indent).append("initialSequences:\n");
        y.append(indent).append("- ").append(quote(single ? mix.flows().get(0).name() : ITERATION)).append(":\n");
        String steps = indent + "  ";
        iteration(y, steps, mix, users);
        if (single) {
            flow(y, steps, mix.flows().get(0), spec, authority, think, inLab);
        }
        if (single && mix.steps().stream().allMatch(s -> s.extract().isEmpty())) {
            return;
        }
        y.append(indent).append("sequences:\n");
        if (!single) {
            for (Flow f : mix.flows()) {
                y.append(indent).append("- ").append(quote(f.name())).append(":\n");
                flow(y, steps, f, spec, authority, think, inLab);
            }
        }
        // One sequence per step that extracts, run once for each of its responses without the value, which it counts.
        for (FlowStep s : mix.steps()) {
            if (!s.extract().isEmpty()) {
                y.append(indent).append("- ").append(quote(FlowMetrics.missing(s.name()))).append(":\n");
                record(y, steps, FlowMetrics.missing(s.name()));
            }
        }
    }

    private static void iteration(StringBuilder y, String in, Mix mix, int users) {
        y.append(in).append("- loomflux-iteration:\n");
        y.append(in).append("    seed: ").append(mix.seed()).append('\n');
        y.append(in).append("    users: ").append(users).append('\n');
        if (mix.flows().size() > 1) {
            y.append(in).append("    flows:\n");
            mix.flows().forEach(f -> y.append(in).append("      ").append(quote(f.name())).append(": ").append(f.weight()).append('\n'));
        }
        if (mix.flows().stream().anyMatch(f -> !f.data().isEmpty())) {
            y.append(in).append("    values:\n");
            for (Flow f : mix.flows()) {
                f.data().forEach((var, data) -> y.append(in).append("      ").append(quote(f.name() + "." + var)).append(": ")
                        .append(quote(value(data, f))).append('\n'));
            }
        }
        if (mix.flows().stream().anyMatch(f -> f.csv() != null)) {
            y.append(in).append("    csv:\n");
            mix.flows().stream().filter(f -> f.csv() != null).forEach(f -> y.append(in).append("      ").append(quote(f.name())).append(": ")
                    .append(quote(f.csv().per().name().toLowerCase(Locale.ROOT) + " " + f.csv().file().toAbsolutePath())).append('\n'));
        }
    }

    private static String value(FlowData data, Flow f) {
        if (data instanceof FlowData.Uniform u) {
            return "uniform " + u.min() + " " + u.max();
        }
        if (data instanceof FlowData.Column c) {
            return "csv " + f.csv().columns().get(c.index());
        }
        return "unique";
    }

    private static void flow(StringBuilder y, String in, Flow f, LoadSpec spec, String authority, Think think, boolean inLab) {
        for (FlowStep s : f.steps()) {
            step(y, in, s, spec, authority, inLab);
        }
        record(y, in, f.name());
        BenchmarkYaml.thinkTime(y, in, think);
    }

    private static void record(StringBuilder y, String in, String metric) {
        y.append(in).append("- loomflux-record:\n");
        y.append(in).append("    metric: ").append(quote(metric)).append('\n');
    }

    private static void step(StringBuilder y, String in, FlowStep s, LoadSpec spec, String authority, boolean inLab) {
        y.append(in).append("- httpRequest:\n");
        y.append(in).append("    ").append(s.method()).append(":\n");
        y.append(in).append("      pattern: ").append(quote(spec.onWire(s.path()))).append('\n');
        if (authority != null) {
            y.append(in).append("    authority: ").append(quote(authority)).append('\n');
        }
        y.append(in).append("    metric: ").append(quote(s.name())).append('\n');
        boolean noStore = s.method() == FlowStep.Method.GET && s.headers().keySet().stream().noneMatch(h -> h.equalsIgnoreCase("cache-control"));
        if (noStore || !s.headers().isEmpty()) {
            y.append(in).append("    headers:\n");
            if (noStore) {
                // Hyperfoil 0.25.2 caches a session's GET responses (BenchmarkYaml's requests say why no-store).
                y.append(in).append("      cache-control: no-store\n");
            }
            for (Map.Entry<String, String> h : s.headers().entrySet()) {
                y.append(in).append("      ").append(quote(h.getKey())).append(":\n");
                y.append(in).append("        pattern: ").append(quote(h.getValue())).append('\n');
            }
        }
        if (s.body() != null) {
            y.append(in).append("    body:\n");
            y.append(in).append("      pattern: ").append(quote(s.body())).append('\n');
        }
        y.append(in).append("    handler:\n");
        y.append(in).append("      autoRangeCheck: false\n");
        y.append(in).append("      stopOnInvalid: true\n");
        y.append(in).append("      status:\n");
        y.append(in).append("      - range:\n");
        y.append(in).append("          min: ").append(s.expect().min()).append('\n');
        y.append(in).append("          max: ").append(s.expect().max()).append('\n');
        y.append(in).append("      - stats: {}\n");
        if (inLab || s.extract().stream().anyMatch(x -> x.source() == FlowStep.Extract.Source.HEADER)) {
            y.append(in).append("      header:\n");
            if (inLab) {
                y.append(in).append("      - ").append(ConnectionClose.NAME).append(": {}\n");
            }
            s.extract().stream().filter(x -> x.source() == FlowStep.Extract.Source.HEADER).forEach(x -> {
                y.append(in).append("      - filter:\n");
                y.append(in).append("          header:\n");
                y.append(in).append("            value: ").append(quote(x.from())).append('\n');
                y.append(in).append("            caseSensitive: false\n");
                y.append(in).append("          processor:\n");
                y.append(in).append("            store: ").append(quote(x.var())).append('\n');
            });
        }
        if (s.extract().stream().anyMatch(x -> x.source() == FlowStep.Extract.Source.JSON)) {
            y.append(in).append("      body:\n");
            s.extract().stream().filter(x -> x.source() == FlowStep.Extract.Source.JSON).forEach(x -> {
                y.append(in).append("      - json:\n");
                y.append(in).append("          query: ").append(quote(query(x.from()))).append('\n');
                y.append(in).append("          toVar: ").append(quote(x.var())).append('\n');
            });
        }
        y.append(in).append("      rawBytes:\n");
        y.append(in).append("      - transferSizeRecorder:\n");
        y.append(in).append("          key: ").append(PhasePlan.TRANSFER).append('\n');
        for (FlowStep.Extract x : s.extract()) {
            y.append(in).append("- breakSequence:\n");
            y.append(in).append("    stringCondition:\n");
            y.append(in).append("      fromVar: ").append(quote(x.var())).append('\n');
            y.append(in).append("      isSet: false\n");
            y.append(in).append("    onBreak:\n");
            y.append(in).append("    - newSequence: ").append(quote(FlowMetrics.missing(s.name()))).append('\n');
        }
        BenchmarkYaml.thinkTime(y, in, s.think());
    }

    /**
     * Hyperfoil's {@code json} query for a valid path ({@link JsonPath}): the same path without the {@code $}, {@code $.items[0].id}
     * is {@code .items[0].id}, {@code $[0].id} is {@code .[0].id}.
     */
    static String query(String path) {
        if (!JsonPath.valid(path)) {
            throw new IllegalArgumentException("not a JSON path: " + path);
        }
        String rest = path.substring(1);
        return rest.startsWith("[") ? "." + rest : rest;
    }
}
