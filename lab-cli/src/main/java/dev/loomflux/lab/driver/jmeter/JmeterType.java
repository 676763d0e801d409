package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.DriverSetup;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.result.Environment;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * JMeter as it describes itself: the JMeter the build assembles, a process of its own, on one process or on agents, on the
 * lab's plans or on one of the user's; its rounds' blocks are fixed only (its arrivals cannot wait at a gate without leaving
 * their schedule).
 */
public final class JmeterType implements DriverType {
    static final String NAME = "jmeter";

    /** The JMeter home the build assembles (jmeter/ in the checkout), or a one-line error saying how to build it. */
    public static Path home() {
        Path home = Home.detect().root().resolve("jmeter").resolve("target").resolve("jmeter");
        if (!Files.isRegularFile(home.resolve("bin").resolve("ApacheJMeter.jar"))) {
            throw new UsageException("JMeter not found in " + home + " (build with ./mvnw -DskipTests package, or run ./lab which builds)");
        }
        return home;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "JMeter";
    }

    @Override
    public String description() {
        return "the JMeter 5.6 the build assembles, run as a process; on one process or on --agents";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.ROUNDS, Capability.OPEN_MODEL, Capability.AGENTS, Capability.OWN_PLANS);
    }

    /** JMeter's elapsed times are whole milliseconds. */
    @Override
    public double latencyStepMs() {
        return 1;
    }

    /** JMeter on the user's plan, loaded and checked before anything starts; or on its agents, each checked ready. */
    @Override
    public LoadDriver create(DriverSetup setup) {
        Path home = home();
        if (setup.plan() != null) {
            return new Jmeter(setup.processes(), home, JmeterAgents.NONE, OwnPlan.read(setup.plan().file(), setup.plan().where(), new PlanTree(home)));
        }
        if (setup.agents() == null) {
            return new Jmeter(setup.processes(), home, JmeterAgents.NONE);
        }
        JmeterAgents on = JmeterAgents.parse(setup.agents());
        on.requireReady(setup.agents().field(), setup.processes(), home, Environment.buildVersions().get(NAME));
        return new Jmeter(setup.processes(), home, on);
    }

    @Override
    public List<String> agentHelp() {
        return List.of("Run a JMeter agent (jmeter-server) for ./lab run --driver " + NAME + " --agents HOST:PORT,... on another host.",
                "It listens on --bind only, over RMI with SSL and client certificates from --keystore, made there when missing.");
    }

    @Override
    public int serveAgent(LabProcesses owner, String bind, Path keystore, Path logs, PrintWriter out) {
        return JmeterAgents.serve(owner, home(), bind, keystore, logs, out);
    }

    @Override
    public String configuration(String version, List<List<String>> agentsPerLoad) {
        int agents = agentsPerLoad.stream().mapToInt(List::size).max().orElse(0);
        List<String> addresses = agentsPerLoad.stream().flatMap(List::stream).distinct().toList();
        return "Apache JMeter " + version + ", non-GUI, "
                + (agents == 0 ? "one local process" : "a controller here and " + agents + " agents"
                // The lab's own agents are started for each load, each time on new ports.
                + (addresses.size() > agents ? " started on 127.0.0.1 for each load" : " (" + String.join(", ", addresses) + ")")
                + ", RMI over SSL, users and rates split over them")
                + " (latency in whole ms; a thread and connection per user, per arrival for a rate)";
    }
}
