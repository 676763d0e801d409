package dev.loomflux.lab.driver.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.experiment.LoadProfile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's plan as JMeter's own SaveService loads it, from the JMeter the build assembles: the plans the lab can point at
 * each target pass, and every other is one line naming the file and what in it cannot run.
 */
class OwnPlanTest {
    private static final Path HOME = JmeterType.home();
    /** One JMeter for every test: loading it takes seconds of CPU. */
    private static final PlanTree JMETER = new PlanTree(HOME);
    private static final String HOST = "<stringProp name=\"HTTPSampler.domain\">${__P(host)}</stringProp>";

    @TempDir
    Path dir;

    private static String good() throws Exception {
        return Files.readString(Path.of(OwnPlanTest.class.getResource("/plans/two-samplers.jmx").toURI()));
    }

    private OwnPlan read(String jmx) throws Exception {
        return OwnPlan.read(Files.writeString(dir.resolve("plan.jmx"), jmx), "--plan plan.jmx", JMETER);
    }

    private String refusal(String jmx) throws Exception {
        Path file = Files.writeString(dir.resolve("plan.jmx"), jmx);
        String message = assertThrows(UsageException.class, () -> OwnPlan.read(file, "--plan plan.jmx", JMETER)).getMessage();
        assertEquals(1, message.lines().count(), message);
        return message;
    }

    @Test
    void aPlanWhoseSamplersReadHostAndPortAndWhoseLengthIsTheLabsRunsAtTheLabsPace() throws Exception {
        OwnPlan plan = read(good());
        assertEquals("plan.jmx", plan.fileName());
        assertFalse(plan.ownLength(), "its thread group loops for ${__P(duration)}");
        // The plan as the lab runs it loads in JMeter too, with the lab's Connection: close extractor first under the test plan.
        Path asRun = Files.writeString(dir.resolve("as-run.jmx"), plan.text());
        List<PlanTree.Element> top = JMETER.load(asRun);
        assertEquals(List.of("closed", "target", "users"), top.get(0).children().stream().map(PlanTree.Element::name).toList());
        assertTrue(plan.text().contains("<stringProp name=\"RegexExtractor.refname\">" + JmeterPlan.CLOSED + "</stringProp>"), plan.text());
        assertFalse(java.util.regex.Pattern.compile("\n[ \t]*\n").matcher(plan.text()).find(), "indented anew, without the file's indentation as blank lines:\n" + plan.text());
    }

    @Test
    void aValueOfBlanksStaysInThePlanAsRun() throws Exception {
        String blanks = good().replace("<stringProp name=\"ThreadGroup.delay\">0</stringProp>", "<stringProp name=\"ThreadGroup.delay\"> </stringProp>");
        assertTrue(read(blanks).text().contains("<stringProp name=\"ThreadGroup.delay\"> </stringProp>"), read(blanks).text());
    }

    @Test
    void theExamplePlanTakesItsHostAndPortFromTheHttpRequestDefaults() {
        OwnPlan plan = OwnPlan.read(Home.detect().root().resolve("experiments").resolve("own-plan.jmx"), "--plan own-plan.jmx", JMETER);
        assertFalse(plan.ownLength());
    }

    @Test
    void theLabSetsTheTargetsHostAndPortAndTheLoadsUsersAndWholeSeconds() {
        LoadSpec spec = new LoadSpec(URI.create("http://127.0.0.1:8081"), "/", new LoadProfile.Fixed(7, Duration.ofMillis(2500)), 1);
        assertEquals(List.of("-Jhost=127.0.0.1", "-Jport=8081", "-Jusers=7", "-Jduration=3"), OwnPlan.properties(spec));
    }

    @Test
    void aSamplerWithAFixedHostIsRefusedByName() throws Exception {
        String fixed = good().replaceFirst("\\Q" + HOST + "\\E", "<stringProp name=\"HTTPSampler.domain\">shop.example.com</stringProp>");
        assertEquals("--plan plan.jmx: sampler 'cpu' sends to host 'shop.example.com', not ${__P(host)}: the lab cannot point it at each target",
                refusal(fixed));
    }

    @Test
    void aFixedPortAWholeUrlAndHttpsAreRefusedToo() throws Exception {
        assertEquals("--plan plan.jmx: sampler 'json' sends to port '8080', not ${__P(port)}: the lab cannot point it at each target",
                refusal(good().replaceFirst("(?s)(?<before>testname=\"json\">.*?)\\$\\{__P\\(port\\)}", "${before}8080")));
        assertEquals("--plan plan.jmx: sampler 'cpu' sends to host 'api.example.com', not ${__P(host)}: the lab cannot point it at each target",
                refusal(good().replace(">/cpu?work=100000<", ">http://api.example.com/cpu?work=100000<")));
        assertEquals("--plan plan.jmx: sampler 'cpu' speaks https: the lab's targets speak plain HTTP",
                refusal(good().replace(">/cpu?work=100000<", ">https://${__P(host)}:${__P(port)}/cpu?work=100000<")));
    }

    @Test
    void aSamplerWithNoHostAndNoDefaultsIsRefused() throws Exception {
        assertEquals("--plan plan.jmx: sampler 'cpu' names no host, nor do HTTP Request Defaults over it: give it ${__P(host)},"
                + " which the lab sets to each target's", refusal(good().replaceFirst("\\Q" + HOST + "\\E", "")));
    }

    @Test
    void aHostThroughAUserDefinedVariableAndAPropertyWithADefaultPass() throws Exception {
        // The test plan's user-defined variables come first in the file.
        String viaVariable = good().replaceFirst("<collectionProp name=\"Arguments.arguments\"/>", """
                <collectionProp name="Arguments.arguments">
                  <elementProp name="HOST" elementType="Argument">
                    <stringProp name="Argument.name">HOST</stringProp>
                    <stringProp name="Argument.value">\\${__P(host,localhost)}</stringProp>
                    <stringProp name="Argument.metadata">=</stringProp>
                  </elementProp>
                </collectionProp>""").replace(HOST, "<stringProp name=\"HTTPSampler.domain\">${HOST}</stringProp>");
        assertTrue(viaVariable.contains("${HOST}") && viaVariable.contains("Argument.value"), viaVariable);
        assertFalse(read(viaVariable).ownLength());
        assertEquals("--plan plan.jmx: sampler 'cpu' sends to host '${SERVER}', not ${__P(host)}: the lab cannot point it at each target",
                refusal(good().replaceFirst("\\Q" + HOST + "\\E", "<stringProp name=\"HTTPSampler.domain\">\\${SERVER}</stringProp>")),
                "a variable the plan does not define is no property");
    }

    @Test
    void aDisabledSamplerWithAFixedHostDoesNotRun() throws Exception {
        String disabled = good().replace("testname=\"cpu\">", "testname=\"cpu\" enabled=\"false\">")
                .replaceFirst("\\Q" + HOST + "\\E", "<stringProp name=\"HTTPSampler.domain\">shop.example.com</stringProp>");
        assertFalse(read(disabled).ownLength());
    }

    @Test
    void aThreadGroupWithItsOwnLoopsKeepsItsLengthAndOneThatLoopsForeverWithoutEndIsRefused() throws Exception {
        String tenLoops = good().replace("<stringProp name=\"LoopController.loops\">-1</stringProp>", "<stringProp name=\"LoopController.loops\">10</stringProp>")
                .replace("<boolProp name=\"ThreadGroup.scheduler\">true</boolProp>", "<boolProp name=\"ThreadGroup.scheduler\">false</boolProp>");
        assertTrue(read(tenLoops).ownLength());
        String ownDuration = good().replace("${__P(duration,30)}", "60");
        assertTrue(read(ownDuration).ownLength());
        String forever = good().replace("<boolProp name=\"ThreadGroup.scheduler\">true</boolProp>", "<boolProp name=\"ThreadGroup.scheduler\">false</boolProp>");
        assertEquals("--plan plan.jmx: thread group 'users' loops forever and has no duration, so it would never end: give it ${__P(duration)}"
                + " as its duration, which the lab sets to each load's length", refusal(forever));
    }

    /** The cpu sampler inside a transaction controller. */
    private static String inTransaction(boolean parentSample) throws Exception {
        String transaction = good().replace("<HTTPSamplerProxy guiclass=\"HttpTestSampleGui\" testclass=\"HTTPSamplerProxy\" testname=\"cpu\">",
                        "<TransactionController guiclass=\"TransactionControllerGui\" testclass=\"TransactionController\" testname=\"browse\">"
                                + "<boolProp name=\"TransactionController.parent\">" + parentSample + "</boolProp></TransactionController><hashTree>"
                                + "<HTTPSamplerProxy guiclass=\"HttpTestSampleGui\" testclass=\"HTTPSamplerProxy\" testname=\"cpu\">")
                .replaceFirst("</HTTPSamplerProxy>\\s*<hashTree/>", "</HTTPSamplerProxy><hashTree/></hashTree>");
        assertTrue(transaction.contains("</HTTPSamplerProxy><hashTree/></hashTree>"), transaction);
        return transaction;
    }

    @Test
    void aTransactionControllerThatHoldsItsRequestsSamplesIsRefused() throws Exception {
        assertEquals("--plan plan.jmx: transaction controller 'browse' generates a parent sample, which holds its requests' samples: the lab reads"
                + " each request's own sample; untick 'Generate parent sample'", refusal(inTransaction(true)));
        assertFalse(read(inTransaction(false)).ownLength(), "without a parent sample each request writes its own");
    }

    @Test
    void aPlanWithoutAnHttpSamplerIsRefused() throws Exception {
        String noSampler = good().replaceAll("(?s)<HTTPSamplerProxy .*?</HTTPSamplerProxy>\\s*<hashTree/>", "");
        assertFalse(noSampler.contains("HTTPSamplerProxy"), noSampler);
        assertEquals("--plan plan.jmx: no HTTP Request sampler: the lab measures HTTP requests, and nothing in it sends one", refusal(noSampler));
    }

    @Test
    void aFileThatIsNoJmeterPlanIsRefused() throws Exception {
        assertEquals("--plan plan.jmx: not a JMeter plan (JMeter cannot load it: CannotResolveClassException: experiment)",
                refusal("<experiment><targets>mvc</targets></experiment>\n"));
        assertTrue(refusal("targets: [mvc]\nscenarios: [json]\n").startsWith("--plan plan.jmx: not a JMeter plan (JMeter cannot load it: XmlPullParserException: "));
    }

    @Test
    void aMissingFileIsRefused() {
        assertEquals("--plan no-such.jmx: no such readable file",
                assertThrows(UsageException.class, () -> OwnPlan.read(dir.resolve("no-such.jmx"), "--plan no-such.jmx", JMETER)).getMessage());
    }
}
