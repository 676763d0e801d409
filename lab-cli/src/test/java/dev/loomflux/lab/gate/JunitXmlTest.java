package dev.loomflux.lab.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

class JunitXmlTest {
    private static Document validated(String xml) throws Exception {
        SchemaFactory schemas = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        schemas.newSchema(new StreamSource(JunitXmlTest.class.getResourceAsStream("/gate/junit.xsd"))).newValidator()
                .validate(new StreamSource(new StringReader(xml)));
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    private static int count(Element e, String attribute) {
        return Integer.parseInt(e.getAttribute(attribute));
    }

    @Test
    void aRegressionAnUndecidedAndABehaviourChangeAreCountedAsCiReadsThem() throws Exception {
        Gate.Check regression = Gate.check(GateTest.base("throughput", 1.25, 1.20, 1.30, null), 5);
        Gate.Check undecided = Gate.check(GateTest.base("p50", 1.0, 0.90, 1.10, null), 5);
        Gate.Check equivalent = Gate.check(GateTest.base("p99", 1.0, 0.97, 1.03, null), 5);
        Gate.Check aa = Gate.check(GateTest.base("throughput", 1.0, 0.98, 1.02, null), 5);
        // a hostile name and cause: markup in them is text, not XML
        Gate g = new Gate("base", "head", 5, List.of(regression, undecided, equivalent), List.of(aa), List.of("<cpu> & \"x\": statuses differ"));
        Document doc = validated(JunitXml.of(g, "20261203-000000-ab-cpu"));
        Element root = doc.getDocumentElement();
        assertEquals("testsuites", root.getNodeName());
        assertEquals(5, count(root, "tests"));
        assertEquals(2, count(root, "failures"), "the regression and the behaviour change");
        assertEquals(1, count(root, "skipped"));
        NodeList suites = root.getElementsByTagName("testsuite");
        assertEquals(2, suites.getLength());
        int failures = 0;
        int cases = 0;
        for (int i = 0; i < suites.getLength(); i++) {
            Element s = (Element) suites.item(i);
            assertEquals(s.getElementsByTagName("testcase").getLength(), count(s, "tests"), s.getAttribute("name"));
            assertEquals(s.getElementsByTagName("failure").getLength(), count(s, "failures"), s.getAttribute("name"));
            failures += count(s, "failures");
            cases += count(s, "tests");
        }
        assertEquals(count(root, "failures"), failures);
        assertEquals(count(root, "tests"), cases);
        Element failure = (Element) doc.getElementsByTagName("failure").item(0);
        assertEquals("<cpu> & \"x\": statuses differ", failure.getAttribute("message"));
        Element regressed = (Element) doc.getElementsByTagName("failure").item(1);
        assertEquals("regression", regressed.getAttribute("type"));
        assertTrue(regressed.getAttribute("message").contains("head/base 0.800 (simultaneous 95% CI 0.769-0.833)"), regressed.getAttribute("message"));
    }

    @Test
    void aNoisyMachineFailsTheAaSuite() throws Exception {
        Gate.Check noisy = Gate.check(GateTest.base("throughput", 1.12, 1.08, 1.16, null), 5);
        Gate.Check equivalent = Gate.check(GateTest.base("p99", 1.0, 0.97, 1.03, null), 5);
        Element root = validated(JunitXml.of(new Gate("base", "head", 5, List.of(equivalent), List.of(noisy), List.of()), "r")).getDocumentElement();
        assertEquals(1, count(root, "failures"));
        Element aaSuite = (Element) root.getElementsByTagName("testsuite").item(1);
        assertEquals("A/A: base against itself", aaSuite.getAttribute("name"));
        assertEquals(1, count(aaSuite, "failures"));
    }
}
