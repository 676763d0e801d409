package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import dev.loomflux.lab.driver.jmeter.Jmeter;
import dev.loomflux.lab.driver.jmeter.JmeterAgents;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.experiment.DriverChoice;
import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Which load driver a command loads with, and where JMeter's agents are: the flags, else the experiment file's {@code driver}. */
public final class DriverOptions {
    private final LabProcesses processes;

    @Option(names = "--driver", paramLabel = "NAME",
            description = "Load driver: hyperfoil (embedded in the lab) or jmeter (the JMeter 5.6 the build assembles, run as a process;"
                    + " with --agents, the sequential design). Default: the experiment file's driver, else hyperfoil.")
    String driver;

    @Option(names = "--agents", paramLabel = "N|HOST:PORT,...",
            description = "JMeter: run each load on agents, users and rates split over them: N agents the lab starts on 127.0.0.1, or agents"
                    + " started with ./lab agent on other hosts. Default: the experiment file's, else one local JMeter.")
    String agents;

    @Option(names = "--agent-keystore", paramLabel = "FILE", description = "The keystore the agents on other hosts were started with (./lab agent made it).")
    Path agentKeystore;

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

    private boolean agentsGiven(DriverChoice file) {
        return agents != null || file.agents() != null;
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
        DriverChoice file = kept(fromFile);
        return DriverChoice.roundsObstacle(name(file), agentsGiven(file), rate);
    }

    /**
     * @param fromFile   the experiment file's choice ({@link DriverChoice#NONE} without one), which the flags override
     * @param inRounds   whether the load is interleaved rounds (the paired design)
     * @param rateBlocks whether those rounds' blocks are a rate
     */
    LoadDriver driver(DriverChoice fromFile, boolean inRounds, boolean rateBlocks) {
        DriverChoice file = kept(fromFile);
        String name = name(file);
        if ((agents != null || agentKeystore != null) && !"jmeter".equals(name)) {
            throw new UsageException((agents != null ? "--agents" : "--agent-keystore") + ": JMeter's agents; add --driver jmeter");
        }
        String named = driver != null ? "--driver " + driver : file.where();
        return switch (name) {
            case "hyperfoil" -> new Hyperfoil();
            case "jmeter" -> {
                if (inRounds && agentsGiven(file)) {
                    throw new UsageException(agentsField(file) + ": JMeter's agents run no interleaved rounds (each would keep its own); use --design sequential");
                }
                if (inRounds && rateBlocks) {
                    throw new UsageException(named + ": the paired design's rate blocks need the Hyperfoil driver; use --profile fixed or --design sequential");
                }
                yield new Jmeter(processes, Home.detect().jmeter(), agents(file));
            }
            default -> throw new UsageException(named + ": expected hyperfoil or jmeter");
        };
    }

    private JmeterAgents agents(DriverChoice file) {
        Path keystore = agentKeystore != null ? agentKeystore : file.keystore();
        JmeterAgents.Names fields = agents != null
                ? JmeterAgents.Names.flags(agents, keystore)
                : new JmeterAgents.Names(file.agentsWhere(), agentKeystore != null ? "--agent-keystore" : "keystore",
                agentKeystore != null ? "--agent-keystore " + keystore : file.keystoreWhere() + " " + keystore);
        String value = agents != null ? agents : file.agents();
        JmeterAgents on = value == null ? JmeterAgents.NONE : JmeterAgents.parse(value, keystore, fields);
        on.requireReachable(agentsField(file));
        return on;
    }
}
