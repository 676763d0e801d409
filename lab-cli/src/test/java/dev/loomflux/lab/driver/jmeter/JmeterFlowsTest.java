package dev.loomflux.lab.driver.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.driver.FlowValues;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowCsv;
import dev.loomflux.lab.experiment.FlowData;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.experiment.Think;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * A flow, and a mix, as JMeter plans: read back as XML for their elements, loaded by JMeter's own SaveService from
 * the JMeter the build assembles, and their Groovy draws run on JMeter's own Groovy against {@link FlowValues}.
 */
class JmeterFlowsTest {
    private static final URI TARGET = URI.create("http://127.0.0.1:8181/api");
    private static final Mix CRUD = Scenario.of("crud", Map.of(), true, "test").mix();

    @TempDir
    Path dir;

    private static String render(Mix mix, LoadProfile profile) {
        LoadSpec spec = new LoadSpec(TARGET, mix.first().path(), profile, 1, Duration.ofMillis(2500), mix);
        return JmeterPlan.render(spec, PhasePlan.of(profile, 1), "loomflux-flow");
    }

    private static Document xml(String jmx) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(jmx.getBytes(StandardCharsets.UTF_8)));
    }

    private static String text(Document d, String xpath) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(xpath, d);
    }

    private static List<String> all(Document d, String xpath) throws Exception {
        NodeList n = (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, d, XPathConstants.NODESET);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.getLength(); i++) {
            out.add(n.item(i).getTextContent());
        }
        return out;
    }

    private Mix shop() throws Exception {
        Files.writeString(dir.resolve("terms.csv"), "term,city\nloom,\"Sun Prairie, WI\"\nflux,Madison\n");
        FlowCsv terms = FlowCsv.read(dir.resolve("terms.csv"), FlowCsv.Per.USER);
        Flow browse = new Flow("browse", 80, List.of(new FlowStep("search", FlowStep.Method.GET, "/items?q=${term}", Map.of(), null, null,
                FlowStep.Expect.SUCCESS, List.of(new FlowStep.Extract("next", FlowStep.Extract.Source.HEADER, "Location")),
                new Think(Duration.ofMillis(10), Duration.ofMillis(30)))), Map.of("term", new FlowData.Column(0), "city", new FlowData.Column(1)), terms);
        Flow buy = new Flow("buy", 20, List.of(new FlowStep("add", FlowStep.Method.PATCH, "/cart", Map.of("X-Trace", "t-${n}"), "{}", null,
                new FlowStep.Expect(200, 200), List.of(), Think.NONE)), Map.of("n", new FlowData.Unique()), null);
        return new Mix("shop", 7, List.of(browse, buy));
    }

    @Test
    void aFlowIsATransactionOfItsStepsWithTheirChecks() throws Exception {
        Document d = xml(render(CRUD, new LoadProfile.Fixed(8, Duration.ofSeconds(30))));
        assertEquals("startnextloop", text(d, "//ThreadGroup/stringProp[@name='ThreadGroup.on_sample_error']"), "a failed step starts the next iteration");
        assertEquals("crud", text(d, "//TransactionController/@testname"));
        assertEquals(List.of("create", "read", "update", "delete"), all(d, "//TransactionController/following-sibling::hashTree[1]/HTTPSamplerProxy/@testname"));
        assertEquals(List.of("POST", "GET", "PUT", "DELETE"), all(d, "//HTTPSamplerProxy/stringProp[@name='HTTPSampler.method']"));
        assertEquals(List.of("/api/items", "/api/items/${id}", "/api/items/${id}", "/api/items/${id}"),
                all(d, "//HTTPSamplerProxy/stringProp[@name='HTTPSampler.path']"));
        assertEquals("{\"name\": \"item-${n}\", \"priceCents\": ${price}}",
                text(d, "//HTTPSamplerProxy[@testname='create']//elementProp[@elementType='HTTPArgument']/stringProp[@name='Argument.value']"));
        assertEquals("true", text(d, "//HTTPSamplerProxy[@testname='create']/boolProp[@name='HTTPSampler.postBodyRaw']"));
        assertEquals("application/json", text(d, "//HeaderManager//stringProp[@name='Header.value']"));
        assertEquals("$.id", text(d, "//JSONPostProcessor/stringProp[@name='JSONPostProcessor.jsonPathExprs']"));
        assertEquals("id", text(d, "//JSONPostProcessor/stringProp[@name='JSONPostProcessor.referenceNames']"));
        assertEquals("$.id", text(d, "//JSONPathAssertion/stringProp[@name='JSON_PATH']"));
        assertEquals(List.of("201", "200", "200", "204"), all(d, "//ResponseAssertion/collectionProp[@name='Asserion.test_strings']/stringProp"));
        String draw = text(d, "//JSR223PreProcessor/stringProp[@name='script']");
        assertTrue(draw.contains("vars.put('price', uniform(seed, 'price', user, iteration, 100L, 10000L) as String)"), draw);
        assertTrue(draw.contains("long users = 8L"), draw);
    }

    @Test
    void aMixSwitchesBetweenItsFlowsWithTheirDataAndPauses() throws Exception {
        Document d = xml(render(shop(), new LoadProfile.Fixed(4, Duration.ofSeconds(10), new Think(Duration.ofMillis(5), Duration.ofMillis(5)))));
        assertEquals("${" + JmeterFlows.FLOW + "}", text(d, "//SwitchController/stringProp[@name='SwitchController.value']"));
        assertEquals(List.of("browse", "buy"), all(d, "//SwitchController/following-sibling::hashTree[1]/TransactionController/@testname"));
        assertEquals("(?i)(?:^|\\n)\\QLocation\\E:[ \\t]*([^\\r\\n]*)", text(d, "//RegexExtractor[@testname='next']/stringProp[@name='RegexExtractor.regex']"));
        assertEquals("^2\\d\\d$", text(d, "//HTTPSamplerProxy[@testname='search']/following-sibling::hashTree[1]/ResponseAssertion[@testname='expect 2xx']"
                + "/collectionProp/stringProp"));
        assertEquals(List.of("after search", "think"), all(d, "//TestAction[@testname!='iteration']/@testname"), "the step's pause, then the iteration's");
        assertEquals("PATCH", text(d, "//HTTPSamplerProxy[@testname='add']/stringProp[@name='HTTPSampler.method']"));
    }

    /** JMeter's own classes, from the home the build assembles. */
    private static URLClassLoader jmeterClasses() throws Exception {
        Path home = JmeterType.home();
        List<URL> jars = new ArrayList<>();
        for (Path lib : List.of(home.resolve("lib"), home.resolve("lib/ext"))) {
            try (Stream<Path> files = Files.list(lib)) {
                for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).toList()) {
                    jars.add(jar.toUri().toURL());
                }
            }
        }
        return new URLClassLoader(jars.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    @Test
    void jmeterLoadsThePlansAndItsGroovyDrawsWhatHyperfoilDraws() throws Exception {
        Path home = JmeterType.home();
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader jmeter = jmeterClasses()) {
            Thread.currentThread().setContextClassLoader(jmeter);
            Class<?> utils = jmeter.loadClass("org.apache.jmeter.util.JMeterUtils");
            utils.getMethod("setJMeterHome", String.class).invoke(null, home.toString());
            utils.getMethod("loadJMeterProperties", String.class).invoke(null, home.resolve("bin/jmeter.properties").toString());
            utils.getMethod("initLocale").invoke(null);
            Class<?> save = jmeter.loadClass("org.apache.jmeter.save.SaveService");
            for (String jmx : List.of(render(CRUD, new LoadProfile.Fixed(8, Duration.ofSeconds(30))), render(shop(), new LoadProfile.Rate(50, Duration.ofSeconds(10), 20)),
                    JmeterRoundsPlan.renderRounds(rounds(shop()), "r"))) {
                Path file = Files.writeString(dir.resolve("plan.jmx"), jmx);
                Object tree = save.getMethod("loadTree", java.io.File.class).invoke(null, file.toFile());
                assertTrue(tree.toString().contains("TransactionController"), "JMeter built the tree: " + tree);
            }
            // The same draws from the Groovy the plans carry, on JMeter's Groovy.
            Class<?> shell = jmeter.loadClass("groovy.lang.GroovyShell");
            Object groovy = shell.getConstructor(ClassLoader.class).newInstance(jmeter);
            Object drawn = shell.getMethod("evaluate", String.class).invoke(groovy, FlowValues.GROOVY
                    + "[uniform(7L, 'price', 3L, 5L, 100L, 10000L), uniform(-9L, 'n', 0L, 123456L, -50L, 50L), pick(42L, [80, 15, 5], 11L, 2L),"
                    + " pick(42L, [80, 15, 5], 12L, 9L), unique(20L, 3L, 4L), row(false, 7, 20L, 3L, 4L)]");
            assertEquals(List.of(FlowValues.uniform(7, "price", 3, 5, 100, 10_000), FlowValues.uniform(-9, "n", 0, 123_456, -50, 50),
                    (long) FlowValues.pick(42, new int[] {80, 15, 5}, 11, 2), (long) FlowValues.pick(42, new int[] {80, 15, 5}, 12, 9),
                    FlowValues.unique(20, 3, 4), (long) FlowValues.row(FlowCsv.Per.ITERATION, 7, 20, 3, 4)),
                    ((List<?>) drawn).stream().map(v -> ((Number) v).longValue()).toList());
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    private static Rounds rounds(Mix mix) {
        return new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181")), new Rounds.Target("b", URI.create("http://127.0.0.1:8282"))),
                "/items", new LoadProfile.Fixed(3, Duration.ofSeconds(5), new Think(Duration.ofMillis(50), Duration.ofMillis(50))), Rounds.shuffled(2, 2, 1), 1,
                Duration.ofSeconds(10), Duration.ofSeconds(1), mix);
    }

    /**
     * Rounds of flows: each target's users run their iterations behind the gate of its blocks, passed before the draws,
     * send each step to their own target, and leave the block at their flow's transaction sample, written also when a
     * step failed.
     */
    @Test
    void inRoundsEachIterationPassesItsTargetsGateAndLeavesAtItsTransaction() throws Exception {
        Document d = xml(JmeterRoundsPlan.renderRounds(rounds(shop()), "r"));
        for (int i = 0; i < 2; i++) {
            String group = "//ThreadGroup[@testname='t" + i + "']";
            String tree = group + "/following-sibling::hashTree[1]";
            assertEquals("startnextloop", text(d, group + "/stringProp[@name='ThreadGroup.on_sample_error']"));
            assertEquals(List.of("gate", "draw"), all(d, tree + "/TestAction[@testname='iteration']/following-sibling::hashTree[1]/JSR223PreProcessor/@testname"),
                    "no iteration draws before its block");
            assertEquals(Integer.toString(i), text(d, tree + "//JSR223PreProcessor[@testname='gate']/stringProp[@name='parameters']"));
            String port = i == 0 ? "8181" : "8282";
            assertEquals(List.of(port, port), all(d, tree + "//HTTPSamplerProxy/stringProp[@name='HTTPSampler.port']"), "every step to its own target");
            assertTrue(text(d, tree + "/JSR223Listener[@testname='release']/stringProp[@name='script']").contains("sampleEvent.isTransactionSampleEvent()"));
            assertEquals("long user = 0L + ctx.getThreadNum()", text(d, tree + "//JSR223PreProcessor[@testname='draw']/stringProp[@name='script']").lines()
                    .filter(l -> l.startsWith("long user =")).findFirst().orElseThrow(), "each target's users are the same users");
        }
        assertEquals(List.of("think"), all(d, "//ThreadGroup[@testname='t0']/following-sibling::hashTree[1]/TestAction[@testname='think']/@testname"),
                "the pause after an iteration, outside its block's count");
        assertEquals("", text(d, "//*[contains(stringProp[@name='script'], '${')]/@testname"), "no ${...} in a script: JMeter would replace it");
    }

    /** With agents, each agent's users are others: together the thread group's, each once, as the draws need. */
    @Test
    void onAgentsEveryUserIsDrawnForOnce() throws Exception {
        try (URLClassLoader jmeter = jmeterClasses()) {
            Class<?> shell = jmeter.loadClass("groovy.lang.GroovyShell");
            List<Long> users = new ArrayList<>();
            // 5 users from the load's 4th on, over 2 agents: the first agent runs 3 of them, the second 2 (JmeterPlan.Split).
            String user = new JmeterFlows.Users(3, 2, 20).groovy();
            for (int[] agentAndThreads : new int[][] {{0, 3}, {1, 2}}) {
                for (int thread = 0; thread < agentAndThreads[1]; thread++) {
                    Object groovy = shell.getConstructor(ClassLoader.class).newInstance(jmeter);
                    String context = "def props = new Properties()\n"
                            + "props.setProperty('__jm.D_TG', '127.0.0.1:1100')\n"
                            + "props.setProperty('" + JmeterPlan.AGENT_INDEX + "127.0.0.1:1100', '" + agentAndThreads[0] + "')\n"
                            + "def ctx = new Expando(getThreadNum: { -> " + thread + " })\n";
                    users.add(((Number) shell.getMethod("evaluate", String.class).invoke(groovy, context + user)).longValue());
                }
            }
            assertEquals(List.of(3L, 5L, 7L, 4L, 6L), users);
        }
    }
}
