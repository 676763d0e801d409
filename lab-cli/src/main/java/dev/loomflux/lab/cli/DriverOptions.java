package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import dev.loomflux.lab.driver.jmeter.Jmeter;
import dev.loomflux.lab.driver.jmeter.JmeterAgents;
import dev.loomflux.lab.driver.jmeter.OwnPlan;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.experiment.DriverChoice;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.result.Environment;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * Which load driver a command loads with, where JMeter's agents are, and whether JMeter runs a plan of the user's own: the
 * flags, else the experiment file's {@code driver}.
 */
public final class DriverOptions {
    private final LabProcesses processes;

    @Option(names = "--driver", paramLabel = "NAME",
            description = "Load driver: hyperfoil (embedded in the lab) or jmeter (the JMeter 5.6 the build assembles, run as a process;"
                    + " on one process or on --agents). Default: the experiment file's driver, else hyperfoil.")
    String driver;

    @Option(names = "--agents", paramLabel = "N|HOST:PORT,...",
            description = "JMeter: run each load on agents, users and rates split over them: N agents the lab starts on 127.0.0.1, or agents"
                    + " started with ./lab agent on other hosts. Default: the experiment file's, else one local JMeter.")
    String agents;

    @Option(names = "--agent-keystore", paramLabel = "FILE", description = "The keystore the agents on other hosts were started with (./lab agent made it).")
    Path agentKeystore;

    @Option(names = "--plan", paramLabel = "FILE.jmx",
            description = "JMeter: run this plan of your own against each target, one after another, instead of a scenario. The lab sets the JMeter"
                    + " properties " + OwnPlan.HOST + " and " + OwnPlan.PORT + " to each target's, " + OwnPlan.USERS + " and " + OwnPlan.DURATION
                    + " (seconds) to each load's; every HTTP sampler must read $${__P(" + OwnPlan.HOST + ")} and $${__P(" + OwnPlan.PORT + ")}"
                    + " (docs/scale-out.md).")
    Path plan;

    public DriverOptions(LabProcesses processes) {
        this.processes = processes;
    }

    /** The file's choice as the flags leave it: --driver another driver drops the file's agents too. */
    private DriverChoice kept(DriverChoice file) {
        return driver != null && !driver.equals(file.name()) ? DriverChoice.NONE : file;
    }

    private String name(DriverChoice file) {
        return driver != null ? driver : file.name() != null ? file.name() : "hyperfoil";
    }

    /** Where the agents were given, for errors. */
    private String agentsField(DriverChoice file) {
        return agents != null ? "--agents" : file.agentsWhere();
    }

    /**
     * Why the driver the flags and the file choose cannot run interleaved rounds ({@link DriverChoice#roundsObstacle}); null when it can.
     *
     * @param fromFile the experiment file's choice ({@link DriverChoice#NONE} without one), which the flags override
     * @param rate     whether the profile is a rate
     */
    String roundsObstacle(DriverChoice fromFile, boolean rate) {
        if (plan != null || fromFile.plan() != null) {
            return DriverChoice.PLAN_OBSTACLE;
        }
        DriverChoice file = kept(fromFile);
        return DriverChoice.roundsObstacle(name(file), rate);
    }

    /**
     * @param fromFile   the experiment file's choice ({@link DriverChoice#NONE} without one), which the flags override
     * @param inRounds   whether the load is interleaved rounds (the paired design)
     * @param rateBlocks whether those rounds' blocks are a rate
     */
    LoadDriver driver(DriverChoice fromFile, boolean inRounds, boolean rateBlocks) {
        if (plan != null || fromFile.plan() != null) {
            return ownPlan(fromFile, inRounds);
        }
        DriverChoice file = kept(fromFile);
        String name = name(file);
        if ((agents != null || agentKeystore != null) && !"jmeter".equals(name)) {
            throw new UsageException((agents != null ? "--agents" : "--agent-keystore") + ": JMeter's agents; add --driver jmeter");
        }
        String named = driver != null ? "--driver " + driver : file.where();
        return switch (name) {
            case "hyperfoil" -> new Hyperfoil();
            case "jmeter" -> {
                if (inRounds && rateBlocks) {
                    throw new UsageException(named + ": the paired design's rate blocks need the Hyperfoil driver; use --profile fixed or --design sequential");
                }
                yield new Jmeter(processes, Home.detect().jmeter(), agents(file));
            }
            default -> throw new UsageException(named + ": expected hyperfoil or jmeter");
        };
    }

    /**
     * The experiment with the plan of {@code --plan} as its one scenario, named after it unless --name names it: the
     * plan's samplers send the requests, under the fixed profile's users and duration. A file names its plan in
     * driver.jmeter.plan and the reader makes it the file's scenario. The plan cannot vary a sweep's cells.
     *
     * @param fromFile whether the experiment came from a file
     */
    Experiment withPlan(Experiment e, ParseResult given, boolean fromFile) {
        if (plan == null && e.driver().plan() == null) {
            return e;
        }
        String where = plan != null ? "--plan" : e.driver().planWhere();
        if (e.sweep() != null) {
            throw new UsageException(where + ": a sweep varies the lab's own load and scenarios; run the plan with ./lab run");
        }
        if (plan == null) {
            return e;
        }
        if (fromFile) {
            throw new UsageException("--plan cannot be combined with an experiment file; name the plan in the file: driver: {jmeter: {plan: FILE.jmx}}");
        }
        for (String flag : ScenarioOptions.FLAGS) {
            if (given.hasMatchedOption(flag)) {
                throw new UsageException(flag + " cannot be combined with --plan: the plan's samplers send the requests");
            }
        }
        if (!(e.profile() instanceof Profile.Fixed fixed) || !fixed.think().none()) {
            throw new UsageException("--plan: a plan of your own runs under the fixed profile without --think: the lab gives it --users and --duration,"
                    + " its own timers are its pauses");
        }
        Scenario scenario = Scenario.plan(plan.getFileName().toString());
        return e.toBuilder().name(given.hasMatchedOption("--name") ? e.name() : Experiment.nameFrom(scenario.name())).scenarios(java.util.List.of(scenario)).build();
    }

    /**
     * JMeter on the user's plan, loaded and checked before anything starts: in the sequential design, on one local JMeter
     * (an agent would run all of the plan's users).
     */
    private LoadDriver ownPlan(DriverChoice file, boolean inRounds) {
        Path path = plan != null ? plan : file.plan();
        String where = plan != null ? "--plan " + plan : file.planWhere() + " " + file.plan();
        String other = driver != null ? driver : plan != null ? file.name() : null;
        if (other != null && !other.equals("jmeter")) {
            throw new UsageException(where + ": a JMeter plan runs on the JMeter driver, not " + (driver != null ? "--driver " : file.where() + " ") + other);
        }
        if (agents != null || agentKeystore != null || (plan == null && file.agents() != null)) {
            throw new UsageException(where + ": a plan of your own runs on one local JMeter, not on agents (each agent would run all of its users)");
        }
        if (inRounds) {
            throw new UsageException(where + ": a plan of your own runs in the sequential design (the paired design's rounds are plans the lab writes);"
                    + " use --design sequential");
        }
        Path home = Home.detect().jmeter();
        return new Jmeter(processes, home, JmeterAgents.NONE, OwnPlan.read(path, where, home));
    }

    private JmeterAgents agents(DriverChoice file) {
        Path keystore = agentKeystore != null ? agentKeystore : file.keystore();
        JmeterAgents.Names fields = agents != null
                ? JmeterAgents.Names.flags(agents, keystore)
                : new JmeterAgents.Names(file.agentsWhere(), agentKeystore != null ? "--agent-keystore" : "keystore",
                agentKeystore != null ? "--agent-keystore " + keystore : file.keystoreWhere() + " " + keystore);
        String value = agents != null ? agents : file.agents();
        JmeterAgents on = value == null ? JmeterAgents.NONE : JmeterAgents.parse(value, keystore, fields);
        on.requireReady(agentsField(file), processes, Home.detect().jmeter(), Environment.buildVersions().get("jmeter"));
        return on;
    }
}
