package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.FlowValues;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowData;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.Think;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.w3c.dom.Element;

/**
 * A user's iteration of flows inside a JMeter thread group, as {@code FlowYaml} writes it for Hyperfoil. A Flow
 * Control Action that sends nothing starts the iteration: its JSR223 pre-processor draws the flow of a mix and the
 * flow's data with {@link FlowValues#GROOVY}, so both drivers draw the same. A Switch Controller runs the chosen
 * flow's Transaction Controller, named after the flow, whose sample is the whole iteration (its pauses between
 * steps included); in it each step is an HTTP sampler labelled with the step's name, with its headers, a JSON
 * Extractor and a JSON Assertion per JSON path, a Regular Expression Extractor and a Response Assertion per
 * header, and a Response Assertion on the status it expects. A failed sample starts the user's next iteration
 * (the thread group's "start next thread loop" on error). A step's pause is a timer before the sampler after it.
 * The Transaction Controller generates no parent sample: its own row in the results file follows its steps' rows
 * ({@link SampleMetrics} reads both). A flow's CSV file is read where the plan runs, by its absolute path: on JMeter's
 * agents, from the same path on every load host (docs/scale-out.md).
 */
final class JmeterFlows {
    /** The JMeter variable the iteration's chosen flow goes in, by index. */
    static final String FLOW = "loomflux_flow";
    /** JMeter's Response Assertion: the response code field, and its test types "equals" and "contains" (a regex found). */
    private static final String RESPONSE_CODE = "Assertion.response_code";
    private static final String RESPONSE_HEADERS = "Assertion.response_headers";
    private static final int EQUALS = 8;
    private static final int CONTAINS = 2;
    /** Flow Control Action: pause the current thread. */
    private static final int PAUSE = 1;

    private JmeterFlows() {
    }

    /**
     * Who runs a thread group's iterations among the users of one target's load, whose draws tell them apart.
     *
     * @param first  the group's first user among the load's
     * @param agents the JMeter processes that each run the group's plan with their part of its users (1 without
     *               agents): each agent's threads take every {@code agents}-th user from the agent's index on, so the
     *               agents' users together are the group's, each once ({@link JmeterPlan.Split#users}: the first agents
     *               take one more)
     * @param users  the users of one target's load
     */
    record Users(int first, int agents, int users) {
        /** The thread's user, in Groovy. */
        String groovy() {
            return agents == 1 ? first + "L + ctx.getThreadNum()"
                    : first + "L + ctx.getThreadNum() * " + agents + "L + (props.getProperty('" + JmeterPlan.AGENT_INDEX
                    + "' + props.getProperty('__jm.D_TG', ''), '0') as long)";
        }
    }

    /**
     * The iteration of a mix in a thread group's tree.
     *
     * @param think  the pause after each iteration (the profile's)
     * @param target the steps' target when the plan has several (the rounds'): the spec's base; false: the plan's defaults
     * @param gate   adds what runs before the iteration's draws (the rounds' gate), into the tree it is given
     */
    static void iteration(Element tree, LoadSpec spec, Users users, Think think, boolean target, Consumer<Element> gate) {
        Mix mix = spec.mix();
        action(tree, "iteration");
        Element inStart = Jmx.child(tree, "hashTree");
        gate.accept(inStart);
        Jmx.script(inStart, "JSR223PreProcessor", "draw", "", draw(mix, users));
        if (mix.flows().size() == 1) {
            flow(tree, mix.flows().get(0), spec, target);
        } else {
            Element mixer = Jmx.element(tree, "SwitchController", "SwitchControllerGui", mix.name());
            Jmx.string(mixer, "SwitchController.value", "${" + FLOW + "}");
            Element inMix = Jmx.child(tree, "hashTree");
            mix.flows().forEach(f -> flow(inMix, f, spec, target));
        }
        if (!think.none()) {
            action(tree, "think");
            JmeterPlan.pause(Jmx.child(tree, "hashTree"), think);
        }
    }

    /** The iteration's draws: the flow of the mix, then its data, as {@link FlowValues} draws them. */
    private static String draw(Mix mix, Users who) {
        StringBuilder g = new StringBuilder(FlowValues.GROOVY);
        g.append("long seed = ").append(mix.seed()).append("L\n");
        g.append("long users = ").append(who.users()).append("L\n");
        g.append("long user = ").append(who.groovy()).append('\n');
        g.append("long iteration = vars.getIteration() - 1L\n");
        String weights = mix.flows().stream().map(f -> Integer.toString(f.weight())).collect(Collectors.joining(", "));
        g.append("int flow = ").append(mix.flows().size() == 1 ? "0" : "pick(seed, [" + weights + "], user, iteration)").append('\n');
        g.append("vars.put('").append(FLOW).append("', flow as String)\n");
        for (int i = 0; i < mix.flows().size(); i++) {
            Flow f = mix.flows().get(i);
            if (f.data().isEmpty()) {
                continue;
            }
            g.append("if (flow == ").append(i).append(") {\n");
            if (f.csv() != null) {
                g.append("    def rows = props.computeIfAbsent('loomflux.csv.").append(groovy(f.csv().file().toAbsolutePath().toString()))
                        .append("', { k -> readRows('").append(groovy(f.csv().file().toAbsolutePath().toString())).append("') } as java.util.function.Function)\n");
                g.append("    def row = rows[row(").append(f.csv().per() == dev.loomflux.lab.experiment.FlowCsv.Per.USER).append(", rows.size(), users, user, iteration)]\n");
            }
            for (Map.Entry<String, FlowData> d : f.data().entrySet()) {
                String var = d.getKey();
                g.append("    vars.put('").append(var).append("', ");
                if (d.getValue() instanceof FlowData.Uniform u) {
                    g.append("uniform(seed, '").append(var).append("', user, iteration, ").append(u.min()).append("L, ").append(u.max()).append("L) as String");
                } else if (d.getValue() instanceof FlowData.Column c) {
                    g.append("row[").append(c.index()).append(']');
                } else {
                    g.append("unique(users, user, iteration) as String");
                }
                g.append(")\n");
            }
            g.append("}\n");
        }
        if (mix.flows().stream().anyMatch(f -> f.csv() != null)) {
            // The rows after the header, each line split at commas outside quotes, as FlowCsv reads them (a quoted field holds no line break here).
            g.insert(0, """
                    def readRows = { String path ->
                        new File(path).readLines('UTF-8').findAll { !it.isEmpty() }.drop(1).collect { line ->
                            line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/, -1).collect { f -> f.startsWith('"') && f.endsWith('"') && f.length() > 1 ? f[1..-2].replace('""', '"') : f }
                        }
                    }
                    """);
        }
        return g.toString();
    }

    private static String groovy(String s) {
        return s.replace("\\", "\\\\").replace("'", "\\'");
    }

    private static void flow(Element tree, Flow f, LoadSpec spec, boolean target) {
        Element t = Jmx.element(tree, "TransactionController", "TransactionControllerGui", f.name());
        Jmx.bool(t, "TransactionController.parent", false);
        // Pauses between steps are part of the iteration, as in Hyperfoil's record of it.
        Jmx.bool(t, "TransactionController.includeTimers", true);
        Element inFlow = Jmx.child(tree, "hashTree");
        Think before = Think.NONE;
        for (FlowStep s : f.steps()) {
            step(inFlow, s, spec, target, before);
            before = s.think();
        }
        if (!before.none()) {
            action(inFlow, "after " + f.steps().get(f.steps().size() - 1).name());
            JmeterPlan.pause(Jmx.child(inFlow, "hashTree"), before);
        }
    }

    /** @param before the pause of the step before this one, taken before this step's request */
    private static void step(Element tree, FlowStep s, LoadSpec spec, boolean target, Think before) {
        Element sampler = Jmx.element(tree, "HTTPSamplerProxy", "HttpTestSampleGui", s.name());
        if (target) {
            JmeterPlan.target(sampler, spec);
        }
        Jmx.string(sampler, "HTTPSampler.path", spec.onWire(s.path()));
        Jmx.string(sampler, "HTTPSampler.method", s.method().name());
        Jmx.bool(sampler, "HTTPSampler.use_keepalive", true);
        Jmx.bool(sampler, "HTTPSampler.follow_redirects", false);
        Jmx.bool(sampler, "HTTPSampler.auto_redirects", false);
        if (s.body() == null) {
            Jmx.arguments(sampler, "HTTPsampler.Arguments");
        } else {
            Jmx.bool(sampler, "HTTPSampler.postBodyRaw", true);
            body(sampler, s.body());
        }
        Element in = Jmx.child(tree, "hashTree");
        if (!s.headers().isEmpty()) {
            headers(in, s.headers());
        }
        for (FlowStep.Extract x : s.extract()) {
            if (x.source() == FlowStep.Extract.Source.JSON) {
                Element e = Jmx.element(in, "JSONPostProcessor", "JSONPostProcessorGui", x.var());
                Jmx.string(e, "JSONPostProcessor.referenceNames", x.var());
                Jmx.string(e, "JSONPostProcessor.jsonPathExprs", x.from());
                Jmx.string(e, "JSONPostProcessor.match_numbers", "1");
                Jmx.string(e, "JSONPostProcessor.defaultValues", "");
                Jmx.child(in, "hashTree");
                Element a = Jmx.element(in, "JSONPathAssertion", "JSONPathAssertionGui", "has " + x.from());
                Jmx.string(a, "JSON_PATH", x.from());
                Jmx.string(a, "EXPECTED_VALUE", "");
                Jmx.bool(a, "JSONVALIDATION", false);
                Jmx.bool(a, "EXPECT_NULL", false);
                Jmx.bool(a, "INVERT", false);
                Jmx.bool(a, "ISREGEX", false);
                Jmx.child(in, "hashTree");
            } else {
                String header = "(?i)(?:^|\\n)" + java.util.regex.Pattern.quote(x.from()) + ":[ \\t]*";
                Element e = Jmx.element(in, "RegexExtractor", "RegexExtractorGui", x.var());
                Jmx.string(e, "RegexExtractor.useHeaders", "true");
                Jmx.string(e, "RegexExtractor.refname", x.var());
                Jmx.string(e, "RegexExtractor.regex", header + "([^\\r\\n]*)");
                Jmx.string(e, "RegexExtractor.template", "$1$");
                Jmx.string(e, "RegexExtractor.default", "");
                Jmx.bool(e, "RegexExtractor.default_empty_value", true);
                Jmx.string(e, "RegexExtractor.match_number", "1");
                Jmx.child(in, "hashTree");
                assertion(in, "has header " + x.from(), RESPONSE_HEADERS, CONTAINS, header);
            }
        }
        FlowStep.Expect expect = s.expect();
        assertion(in, "expect " + expect, RESPONSE_CODE, expect.single() ? EQUALS : CONTAINS,
                expect.single() ? Integer.toString(expect.min()) : "^" + expect.min() / 100 + "\\d\\d$");
        if (!before.none()) {
            JmeterPlan.pause(in, before);
        }
    }

    /** The body as JMeter's raw body: one argument without a name, its value sent as it is. */
    private static void body(Element sampler, String body) {
        Element args = Jmx.child(sampler, "elementProp");
        args.setAttribute("name", "HTTPsampler.Arguments");
        args.setAttribute("elementType", "Arguments");
        Element list = Jmx.child(args, "collectionProp");
        list.setAttribute("name", "Arguments.arguments");
        Element arg = Jmx.child(list, "elementProp");
        arg.setAttribute("name", "");
        arg.setAttribute("elementType", "HTTPArgument");
        Jmx.bool(arg, "HTTPArgument.always_encode", false);
        Jmx.string(arg, "Argument.value", body);
        Jmx.string(arg, "Argument.metadata", "=");
    }

    private static void headers(Element tree, Map<String, String> headers) {
        Element m = Jmx.element(tree, "HeaderManager", "HeaderPanel", "headers");
        Element list = Jmx.child(m, "collectionProp");
        list.setAttribute("name", "HeaderManager.headers");
        headers.forEach((name, value) -> {
            Element h = Jmx.child(list, "elementProp");
            h.setAttribute("name", "");
            h.setAttribute("elementType", "Header");
            Jmx.string(h, "Header.name", name);
            Jmx.string(h, "Header.value", value);
        });
        Jmx.child(tree, "hashTree");
    }

    /** A Response Assertion of one pattern; JMeter's own property name is spelled "Asserion.test_strings". */
    private static void assertion(Element tree, String name, String field, int type, String pattern) {
        Element a = Jmx.element(tree, "ResponseAssertion", "AssertionGui", name);
        Element strings = Jmx.child(a, "collectionProp");
        strings.setAttribute("name", "Asserion.test_strings");
        Jmx.string(strings, Integer.toString(pattern.hashCode()), pattern);
        Jmx.string(a, "Assertion.custom_message", "");
        Jmx.string(a, "Assertion.test_field", field);
        Jmx.bool(a, "Assertion.assume_success", false);
        Jmx.integer(a, "Assertion.test_type", type);
        Jmx.child(tree, "hashTree");
    }

    /** A Flow Control Action that pauses for nothing and sends nothing: a place for a pre-processor or a timer. */
    private static void action(Element tree, String name) {
        Element a = Jmx.element(tree, "TestAction", "TestActionGui", name);
        Jmx.integer(a, "ActionProcessor.action", PAUSE);
        Jmx.integer(a, "ActionProcessor.target", 0);
        Jmx.string(a, "ActionProcessor.duration", "0");
    }

}
