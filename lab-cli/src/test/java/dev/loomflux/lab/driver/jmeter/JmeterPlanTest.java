package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Every profile rendered to a JMeter test plan and read back: thread groups, their users, times and loops, the request. */
class JmeterPlanTest {
    private static final URI TARGET = URI.create("http://127.0.0.1:8181");

    private static Document render(LoadProfile profile, String path) throws Exception {
        return render(profile, path, JmeterPlan.Split.NONE);
    }

    private static Document render(LoadProfile profile, String path, JmeterPlan.Split split) throws Exception {
        LoadSpec spec = new LoadSpec(TARGET, path, profile, 2, Duration.ofMillis(2500));
        String jmx = JmeterPlan.render(spec, PhasePlan.of(profile, 2), "loomflux-t", split);
        if (System.getProperty("jmx.dump") != null && split.clock() != null && profile instanceof LoadProfile.Fixed) {
            java.nio.file.Files.writeString(java.nio.file.Path.of(System.getProperty("jmx.dump")), jmx);
        }
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(jmx.getBytes(StandardCharsets.UTF_8)));
    }

    /** Each thread group's named properties: "num_threads", "duration", "delay", "loops", "schedule". */
    private static List<Element> groups(Document d) throws Exception {
        NodeList n = (NodeList) XPathFactory.newInstance().newXPath().evaluate("//ThreadGroup|//OpenModelThreadGroup", d, XPathConstants.NODESET);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < n.getLength(); i++) {
            out.add((Element) n.item(i));
        }
        return out;
    }

    private static String prop(Element e, String name) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(".//*[@name='" + name + "']", e);
    }

    private static String text(Document d, String xpath) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(xpath, d);
    }

    @Test
    void fixedUsersAreOneThreadGroupForTheDuration() throws Exception {
        Document d = render(new LoadProfile.Fixed(8, Duration.ofSeconds(30)), "/gateway?delay=20&x=\"<y>\"");
        List<Element> g = groups(d);
        assertEquals(1, g.size());
        assertEquals("8", prop(g.get(0), "ThreadGroup.num_threads"));
        assertEquals("30", prop(g.get(0), "ThreadGroup.duration"));
        assertEquals("0", prop(g.get(0), "ThreadGroup.delay"));
        assertEquals("true", prop(g.get(0), "ThreadGroup.scheduler"));
        assertEquals("-1", prop(g.get(0), "LoopController.loops"), "until the duration ends");
        assertEquals("continue", prop(g.get(0), "ThreadGroup.on_sample_error"));
        // The path as it goes on the wire, whatever characters it holds: the XML writer escapes them.
        assertEquals("/gateway?delay=20&x=\"<y>\"", text(d, "//HTTPSamplerProxy/stringProp[@name='HTTPSampler.path']"));
        assertEquals("8181", text(d, "//ConfigTestElement/stringProp[@name='HTTPSampler.port']"));
        assertEquals("2500", text(d, "//ConfigTestElement/stringProp[@name='HTTPSampler.response_timeout']"));
        assertEquals("true", text(d, "//HTTPSamplerProxy/boolProp[@name='HTTPSampler.use_keepalive']"));
        assertEquals(JmeterPlan.LABEL, text(d, "//HTTPSamplerProxy/@testname"));
    }

    @Test
    void stagesAreLayeredThreadGroupsWithTheirOwnDelays() throws Exception {
        // 0 -> 4 users over 4 s, then 4 for 2 s: users 1..4 join one a second and all stay to the end (6 s).
        List<Element> g = groups(render(new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(4), 4),
                new LoadProfile.Stage(Duration.ofSeconds(2), 4)), Think.NONE), "/json"));
        int users = 0;
        for (Element e : g) {
            int n = Integer.parseInt(prop(e, "ThreadGroup.num_threads"));
            long delay = Long.parseLong(prop(e, "ThreadGroup.delay"));
            long duration = Long.parseLong(prop(e, "ThreadGroup.duration"));
            assertEquals(6, delay + duration, "every layer ends with the load: " + delay + " + " + duration);
            users += n;
        }
        assertEquals(4, users, "the peak");
        assertTrue(g.size() >= 3, "users join at different seconds: " + g.size() + " groups");
    }

    @Test
    void aBurstsUsersEachSendTheirRequestsAndStop() throws Exception {
        List<Element> g = groups(render(new LoadProfile.Burst(50, 3, Think.NONE), "/plaintext"));
        assertEquals(1, g.size());
        assertEquals("50", prop(g.get(0), "ThreadGroup.num_threads"));
        assertEquals("3", prop(g.get(0), "LoopController.loops"));
        assertEquals("false", prop(g.get(0), "ThreadGroup.scheduler"));
    }

    @Test
    void loopsStartTheirUsersOverOneSecond() throws Exception {
        List<Element> g = groups(render(new LoadProfile.Loops(40, 25, Think.NONE), "/plaintext"));
        assertEquals(1, g.size(), "Hyperfoil's 20 ms slots are JMeter's own ramp-up");
        assertEquals("40", prop(g.get(0), "ThreadGroup.num_threads"));
        assertEquals("1", prop(g.get(0), "ThreadGroup.ramp_time"));
        assertEquals("25", prop(g.get(0), "LoopController.loops"));
    }

    @Test
    void aRateIsAnOpenModelWithEvenArrivals() throws Exception {
        List<Element> g = groups(render(new LoadProfile.Rate(250, Duration.ofSeconds(20), 100), "/plaintext"));
        assertEquals(1, g.size());
        assertEquals("OpenModelThreadGroup", g.get(0).getTagName());
        assertEquals("rate(250/sec) even_arrivals(20 sec) pause(3 sec)", prop(g.get(0), "OpenModelThreadGroup.schedule"),
                "arrivals for 20 s, then up to the request timeout (2.5 s) for the last to finish");
    }

    @Test
    void thinkTimeIsAUniformTimerAfterEachResponse() throws Exception {
        Document d = render(new LoadProfile.Fixed(4, Duration.ofSeconds(5), new Think(Duration.ofMillis(100), Duration.ofMillis(300))), "/plaintext");
        assertEquals("100", text(d, "//UniformRandomTimer/stringProp[@name='ConstantTimer.delay']"));
        assertEquals("200", text(d, "//UniformRandomTimer/stringProp[@name='RandomTimer.range']"));
        assertEquals(0, ((NodeList) XPathFactory.newInstance().newXPath().evaluate("//UniformRandomTimer",
                render(new LoadProfile.Fixed(4, Duration.ofSeconds(5)), "/plaintext"), XPathConstants.NODESET)).getLength());
    }

    @Test
    void aPartOfASecondIsRoundedUpForJmeterThatCountsWholeSeconds() throws Exception {
        assertEquals("3", prop(groups(render(new LoadProfile.Fixed(4, Duration.ofMillis(2500)), "/plaintext")).get(0), "ThreadGroup.duration"));
    }

    /**
     * Each of several agents runs the whole plan, so each takes its part: users that divide evenly as a number, the rest
     * to the first agents by the index the lab sends each (JMeter evaluates the expression on the agent); a rate in equal
     * parts; and a clock reading before the load.
     */
    @Test
    void agentsEachTakeTheirPartOfUsersAndRates() throws Exception {
        JmeterPlan.Split three = new JmeterPlan.Split(3, URI.create("http://127.0.0.1:9999/clock"));
        assertEquals("4", three.users(12));
        assertEquals("${__jexl3(${__P(loomflux.agent.${__P(__jm.D_TG,)},0)} < 2 ? 5 : 4)}", three.users(14));
        assertEquals("33.333333", three.rate(100));
        assertEquals("50", new JmeterPlan.Split(2, null).rate(100));
        assertEquals("7", JmeterPlan.Split.NONE.users(7));

        Document d = render(new LoadProfile.Fixed(14, Duration.ofSeconds(30)), "/plaintext", three);
        assertEquals(three.users(14), prop(groups(d).get(0), "ThreadGroup.num_threads"));
        assertEquals(JmeterPlan.CLOCK, text(d, "//SetupThreadGroup/@testname"));
        assertTrue(text(d, "//JSR223Sampler/stringProp[@name='script']").contains("http://127.0.0.1:9999/clock"));
        Document rate = render(new LoadProfile.Rate(100, Duration.ofSeconds(10), 100), "/plaintext", three);
        assertTrue(prop(groups(rate).get(0), "OpenModelThreadGroup.schedule").startsWith("rate(33.333333/sec) even_arrivals(10 sec)"));
        assertEquals("", text(render(new LoadProfile.Fixed(14, Duration.ofSeconds(30)), "/plaintext"), "//SetupThreadGroup/@testname"), "no clock alone");
    }

    /**
     * Every sample, in a load's plan or the rounds', marks a response whose headers (as JMeter records them, one a line)
     * say {@code Connection: close}, whatever the case, alone or among other options; and only those.
     */
    @Test
    void aResponseThatClosesItsConnectionIsMarkedInEveryPlan() throws Exception {
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181"))), "/plaintext",
                new LoadProfile.Fixed(7, Duration.ofSeconds(2)), Rounds.shuffled(1, 1, 1), 1, Duration.ofSeconds(10), Duration.ZERO);
        Document roundsPlan = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(JmeterRoundsPlan.renderRounds(rounds, "r").getBytes(StandardCharsets.UTF_8)));
        for (Document d : List.of(render(new LoadProfile.Fixed(8, Duration.ofSeconds(30)), "/"), roundsPlan)) {
            // At the plan's level, so that it follows every sampler of the plan.
            String extractor = "/jmeterTestPlan/hashTree/hashTree/RegexExtractor";
            assertEquals("true", text(d, extractor + "/stringProp[@name='RegexExtractor.useHeaders']"));
            assertEquals(JmeterPlan.CLOSED, text(d, extractor + "/stringProp[@name='RegexExtractor.refname']"));
            assertEquals("1", text(d, extractor + "/stringProp[@name='RegexExtractor.template']"));
            assertEquals("0", text(d, extractor + "/stringProp[@name='RegexExtractor.default']"));
            Pattern closes = Pattern.compile(text(d, extractor + "/stringProp[@name='RegexExtractor.regex']"));
            String head = "HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 13\n";
            for (String yes : List.of("Connection: close\n", "connection: Close\n", "Connection: keep-alive, close\n")) {
                assertTrue(closes.matcher(head + yes).find(), yes);
            }
            for (String no : List.of("Connection: keep-alive\n", "X-Connection: close\n", "Connection: closed\n", "")) {
                assertFalse(closes.matcher(head + no + "Date: Fri, 27 Nov 2026 12:17:32 GMT\n").find(), no);
            }
        }
    }

    /**
     * Rounds: one thread group per target that lives through every round (no schedule), its requests to its own
     * target behind a gate that knows its index, and a conductor that asks the lab, whose address JMeter is given.
     */
    @Test
    void roundsAreOneGatedThreadGroupPerTargetAndAConductor() throws Exception {
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181")), new Rounds.Target("b", URI.create("http://127.0.0.1:8282"))),
                "/plaintext", new LoadProfile.Fixed(7, Duration.ofSeconds(2)), Rounds.shuffled(2, 3, 1), 1, Duration.ofSeconds(10), Duration.ZERO);
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(JmeterRoundsPlan.renderRounds(rounds, "r").getBytes(StandardCharsets.UTF_8)));
        List<Element> g = groups(d);
        assertEquals(List.of("t0", "t1", "conductor"), g.stream().map(e -> e.getAttribute("testname")).toList());
        for (int i = 0; i < 2; i++) {
            assertEquals("7", prop(g.get(i), "ThreadGroup.num_threads"));
            assertEquals("false", prop(g.get(i), "ThreadGroup.scheduler"), "alive from the first round to the last");
            assertEquals("-1", prop(g.get(i), "LoopController.loops"));
            String port = i == 0 ? "8181" : "8282";
            assertEquals(port, text(d, "//ThreadGroup[@testname='t" + i + "']/following-sibling::hashTree[1]/HTTPSamplerProxy/stringProp[@name='HTTPSampler.port']"));
            assertEquals(Integer.toString(i), text(d, "//ThreadGroup[@testname='t" + i + "']/following-sibling::hashTree[1]//JSR223PreProcessor/stringProp[@name='parameters']"));
        }
        assertEquals("${__P(" + JmeterRoundsPlan.LAB + ")} ${__P(" + JmeterPlan.AGENT_INDEX + "${__P(__jm.D_TG,)},0)}",
                text(d, "//JSR223Sampler[@testname='conductor']/stringProp[@name='parameters']"), "the lab, and which agent asks (0 on one JMeter)");
        assertEquals("", text(d, "//*[contains(stringProp[@name='script'], '${')]/@testname"), "no ${...} in a script: JMeter would replace it");
        assertThrows(IllegalArgumentException.class, () -> JmeterRoundsPlan.renderRounds(new Rounds(rounds.targets(), "/plaintext",
                new LoadProfile.Rate(100, Duration.ofSeconds(2), 100), rounds.order(), 1, Duration.ofSeconds(10), Duration.ZERO), "r"));
    }
}
