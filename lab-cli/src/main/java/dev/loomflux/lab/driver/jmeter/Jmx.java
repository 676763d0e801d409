package dev.loomflux.lab.driver.jmeter;

import java.io.StringWriter;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The pieces a JMeter 5.6 test plan (.jmx) is written from, whatever it runs: test elements with their
 * string and boolean properties, each followed by the {@code hashTree} that holds its children, and the
 * document written out as indented XML. {@link JmeterPlan} says what a plan holds.
 */
final class Jmx {
    private Jmx() {
    }

    static Document newDocument() {
        try {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    static String write(Document doc) {
        try {
            var t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.INDENT, "yes");
            t.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
            StringWriter out = new StringWriter();
            t.transform(new DOMSource(doc), new StreamResult(out));
            return out.toString();
        } catch (TransformerException e) {
            throw new IllegalStateException(e);
        }
    }

    static Element element(Element parent, String testclass, String gui, String name) {
        Element e = child(parent, testclass);
        e.setAttribute("guiclass", gui);
        e.setAttribute("testclass", testclass);
        e.setAttribute("testname", name);
        e.setAttribute("enabled", "true");
        return e;
    }

    static Element child(Element parent, String tag) {
        Element e = parent.getOwnerDocument().createElement(tag);
        parent.appendChild(e);
        return e;
    }

    static void string(Element parent, String name, String value) {
        Element p = child(parent, "stringProp");
        p.setAttribute("name", name);
        p.setTextContent(value);
    }

    static void bool(Element parent, String name, boolean value) {
        Element p = child(parent, "boolProp");
        p.setAttribute("name", name);
        p.setTextContent(Boolean.toString(value));
    }

    static void integer(Element parent, String name, int value) {
        Element p = child(parent, "intProp");
        p.setAttribute("name", name);
        p.setTextContent(Integer.toString(value));
    }

    static void arguments(Element parent, String name) {
        Element args = child(parent, "elementProp");
        args.setAttribute("name", name);
        args.setAttribute("elementType", "Arguments");
        args.setAttribute("guiclass", "HTTPArgumentsPanel");
        args.setAttribute("testclass", "Arguments");
        child(args, "collectionProp").setAttribute("name", "Arguments.arguments");
    }

    static void loop(Element threadGroup, int loops) {
        Element loop = child(threadGroup, "elementProp");
        loop.setAttribute("name", "ThreadGroup.main_controller");
        loop.setAttribute("elementType", "LoopController");
        loop.setAttribute("guiclass", "LoopControlPanel");
        loop.setAttribute("testclass", "LoopController");
        bool(loop, "LoopController.continue_forever", false);
        string(loop, "LoopController.loops", Integer.toString(loops));
    }

    /**
     * A thread group whose users all start at once and run their loops (-1: until JMeter stops), on no schedule.
     *
     * @param onError what a user does after a failed sample: {@code continue}, or {@code startnextloop}
     */
    static Element unscheduled(Element parent, String testclass, String name, String users, int loops, String onError) {
        Element g = element(parent, testclass, testclass + "Gui", name);
        string(g, "ThreadGroup.on_sample_error", onError);
        loop(g, loops);
        string(g, "ThreadGroup.num_threads", users);
        string(g, "ThreadGroup.ramp_time", "0");
        bool(g, "ThreadGroup.scheduler", false);
        return g;
    }

    /** A Groovy element, its script compiled once; {@code parameters} reach it as {@code Parameters}. */
    static void script(Element tree, String testclass, String name, String parameters, String script) {
        Element e = element(tree, testclass, "TestBeanGUI", name);
        string(e, "scriptLanguage", "groovy");
        string(e, "cacheKey", "true");
        string(e, "parameters", parameters);
        string(e, "filename", "");
        string(e, "script", script);
        child(tree, "hashTree");
    }
}
