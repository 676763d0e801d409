package dev.loomflux.lab.gate;

import java.io.StringWriter;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * A regression gate as JUnit XML, the format CI systems read test results in (Jenkins, GitLab, GitHub's test reporters): a
 * suite of head against base, one test case per metric and part, failed on a regression and skipped when undecided; a suite of
 * the A/A check, failed where the base differed from itself; and a case per behaviour change, failed. The elements and
 * attributes are those of the Ant task's format every reader takes (docs/ci.md).
 */
public final class JunitXml {
    private JunitXml() {
    }

    public static String of(Gate g, String runId) {
        try {
            StringWriter out = new StringWriter();
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "loomflux ab " + runId);
            int behaviour = g.behaviour().size();
            x.writeAttribute("tests", String.valueOf(g.checks().size() + g.aa().size() + behaviour));
            x.writeAttribute("failures", String.valueOf(failed(g.checks(), false) + failed(g.aa(), true) + behaviour));
            x.writeAttribute("errors", "0");
            x.writeAttribute("skipped", String.valueOf(skipped(g.checks())));
            suite(x, g.head() + " against " + g.base(), g.checks(), false, g.head() + "/" + g.base(), g.behaviour());
            suite(x, "A/A: " + g.base() + " against itself", g.aa(), true, g.base() + Gate.SECOND + "/" + g.base() + Gate.FIRST, List.of());
            x.writeCharacters("\n");
            x.writeEndElement();
            x.writeEndDocument();
            x.close();
            return out.append("\n").toString();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("writing JUnit XML to a string", e);
        }
    }

    private static void suite(XMLStreamWriter x, String name, List<Gate.Check> checks, boolean aa, String of, List<String> behaviour) throws XMLStreamException {
        x.writeCharacters("\n  ");
        x.writeStartElement("testsuite");
        x.writeAttribute("name", name);
        x.writeAttribute("tests", String.valueOf(checks.size() + behaviour.size()));
        x.writeAttribute("failures", String.valueOf(failed(checks, aa) + behaviour.size()));
        x.writeAttribute("errors", "0");
        x.writeAttribute("skipped", String.valueOf(aa ? 0 : skipped(checks)));
        for (String b : behaviour) {
            x.writeCharacters("\n    ");
            x.writeStartElement("testcase");
            x.writeAttribute("classname", b.substring(0, Math.max(0, b.indexOf(':'))));
            x.writeAttribute("name", "statuses");
            x.writeStartElement("failure");
            x.writeAttribute("type", "behaviour change");
            x.writeAttribute("message", b);
            x.writeEndElement();
            x.writeEndElement();
        }
        for (Gate.Check c : checks) {
            x.writeCharacters("\n    ");
            x.writeStartElement("testcase");
            x.writeAttribute("classname", c.where());
            x.writeAttribute("name", c.metric());
            boolean fails = aa ? c.outcome() == Gate.Outcome.REGRESSION || c.outcome() == Gate.Outcome.IMPROVEMENT : c.outcome() == Gate.Outcome.REGRESSION;
            if (fails) {
                x.writeStartElement("failure");
                x.writeAttribute("type", aa ? "noisy machine" : "regression");
                x.writeAttribute("message", c.describe(of));
                x.writeEndElement();
            } else if (!aa && c.outcome() == Gate.Outcome.UNDECIDED) {
                x.writeStartElement("skipped");
                x.writeAttribute("message", c.describe(of));
                x.writeEndElement();
            } else {
                x.writeStartElement("system-out");
                x.writeCharacters(c.describe(of));
                x.writeEndElement();
            }
            x.writeEndElement();
        }
        x.writeCharacters("\n  ");
        x.writeEndElement();
    }

    private static long failed(List<Gate.Check> checks, boolean aa) {
        return checks.stream().filter(c -> c.outcome() == Gate.Outcome.REGRESSION || aa && c.outcome() == Gate.Outcome.IMPROVEMENT).count();
    }

    private static long skipped(List<Gate.Check> checks) {
        return checks.stream().filter(c -> c.outcome() == Gate.Outcome.UNDECIDED).count();
    }
}
