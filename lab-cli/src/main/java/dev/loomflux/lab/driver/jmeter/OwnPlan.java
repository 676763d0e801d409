package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.experiment.LoadProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * A JMeter plan of the user's own ({@code --plan FILE.jmx}), checked before anything starts ({@link PlanCheck}) and run
 * against each target in turn (docs/scale-out.md, "Your own JMeter plan"). The lab points it at a target, and gives it
 * the load's users and length, through JMeter properties set on JMeter's command line; it runs the plan as written,
 * with one element added at the plan's top: the post-processor that tells the lab which responses closed their
 * connection, as in the lab's own plans ({@link JmeterPlan#CLOSED}).
 */
public final class OwnPlan {
    /** The JMeter property the lab sets to the target's host, e.g. 127.0.0.1. */
    public static final String HOST = "host";
    /** The JMeter property the lab sets to the target's port. */
    public static final String PORT = "port";
    /** The JMeter property the lab sets to the load's users: few in the compile stage, the profile's after it. */
    public static final String USERS = "users";
    /** The JMeter property the lab sets to the load's length, in whole seconds: the warmup's and the measured window's together. */
    public static final String DURATION = "duration";

    private final String fileName;
    private final String text;
    private final boolean ownLength;

    private OwnPlan(String fileName, String text, boolean ownLength) {
        this.fileName = fileName;
        this.text = text;
        this.ownLength = ownLength;
    }

    /**
     * Loads the plan as JMeter does and checks that the lab can point it at each target.
     *
     * @param where the flag or file field that named it, for a one-line error ({@code --plan FILE})
     * @param jmeter the JMeter the build assembles, which loads it
     * @throws UsageException when the file is missing, not a JMeter plan, or cannot be pointed at a target
     */
    static OwnPlan read(Path file, String where, PlanTree jmeter) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new UsageException(where + ": no such readable file");
        }
        boolean ownLength;
        try {
            ownLength = PlanCheck.check(jmeter.load(file));
        } catch (PlanTree.NotAPlan e) {
            throw new UsageException(where + ": not a JMeter plan (JMeter cannot load it: " + e.getMessage() + ")");
        } catch (PlanCheck.Refused e) {
            throw new UsageException(where + ": " + e.getMessage());
        }
        return new OwnPlan(file.getFileName().toString(), withClosed(file, where), ownLength);
    }

    /** The plan's file name, e.g. own-plan.jmx. */
    public String fileName() {
        return fileName;
    }

    /**
     * Whether the plan keeps a length of its own (a thread group with its own loop count or duration): the lab then
     * cannot go on from the warmup into the measured window in one run, and measures a whole run of the plan.
     */
    public boolean ownLength() {
        return ownLength;
    }

    /** The plan as the lab runs it. */
    String text() {
        return text;
    }

    /** JMeter's options that point the plan at the load's target and give it the load's users and length. */
    static List<String> properties(LoadSpec spec) {
        if (!(spec.profile() instanceof LoadProfile.Fixed fixed)) {
            throw new IllegalArgumentException("a plan of the user's own runs fixed loads only, not " + spec.profile().kind());
        }
        int port = spec.base().getPort() == -1 ? 80 : spec.base().getPort();
        return List.of("-J" + HOST + "=" + spec.base().getHost(), "-J" + PORT + "=" + port, "-J" + USERS + "=" + fixed.users(),
                "-J" + DURATION + "=" + JmeterPlan.seconds(fixed.duration().toMillis()));
    }

    /** The plan's text with {@link JmeterPlan#closed} first under its test plan, where it applies to every sampler. */
    private static String withClosed(Path file, String where) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = factory.newDocumentBuilder().parse(file.toFile());
            // The writer indents anew: the file's own indentation would come out as blank lines between its elements.
            dropBlankText(doc.getDocumentElement());
            // <jmeterTestPlan><hashTree><TestPlan/><hashTree>the plan's elements</hashTree></hashTree></jmeterTestPlan>
            Element top = firstElement(doc.getDocumentElement().getFirstChild());
            Element plan = top == null ? null : firstElement(top.getFirstChild());
            Element inPlan = plan == null ? null : firstElement(plan.getNextSibling());
            if (inPlan == null || !inPlan.getTagName().equals("hashTree")) {
                throw new UsageException(where + ": not a JMeter plan (no hashTree under its test plan)");
            }
            Element holder = doc.createElement("hashTree");
            JmeterPlan.closed(holder);
            while (holder.getLastChild() != null) {
                inPlan.insertBefore(holder.getLastChild(), inPlan.getFirstChild());
            }
            return Jmx.write(doc);
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new UsageException(where + ": not a JMeter plan (" + e.getMessage() + ")");
        }
    }

    /** Blank text between elements; a value's own text, blank or not ({@code <stringProp> </stringProp>}), stays. */
    private static void dropBlankText(Node node) {
        boolean holdsElements = firstElement(node.getFirstChild()) != null;
        for (Node n = node.getFirstChild(); n != null; ) {
            Node next = n.getNextSibling();
            if (holdsElements && n.getNodeType() == Node.TEXT_NODE && n.getTextContent().isBlank()) {
                node.removeChild(n);
            } else {
                dropBlankText(n);
            }
            n = next;
        }
    }

    private static Element firstElement(Node from) {
        for (Node n = from; n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }
}
