package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.Hyperfoil;
import dev.loomflux.lab.driver.Jmeter;
import dev.loomflux.lab.driver.JmeterAgents;
import dev.loomflux.lab.driver.LoadDriver;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Which load driver a command loads with, and where JMeter's agents are. */
public final class DriverOptions {
    @Option(names = "--driver", paramLabel = "NAME", defaultValue = "hyperfoil",
            description = "Load driver: hyperfoil (embedded in the lab) or jmeter (the JMeter 5.6 the build assembles, run as a process;"
                    + " with --agents, the sequential design). Default: ${DEFAULT-VALUE}.")
    String driver;

    @Option(names = "--agents", paramLabel = "N|HOST:PORT,...",
            description = "JMeter: run each load on agents, users and rates split over them: N agents the lab starts on 127.0.0.1, or agents"
                    + " started with ./lab agent on other hosts. Default: one local JMeter.")
    String agents;

    @Option(names = "--agent-keystore", paramLabel = "FILE", description = "The keystore the agents on other hosts were started with (./lab agent made it).")
    Path agentKeystore;

    /** JMeter's agents each run the whole plan, so they cannot take turns in one set of rounds: with them, runs are sequential. */
    boolean roundsPossible() {
        return !"jmeter".equals(driver) || agents == null;
    }

    /**
     * @param inRounds   whether the load is interleaved rounds (the paired design)
     * @param rateBlocks whether those rounds' blocks are a rate
     */
    LoadDriver driver(boolean inRounds, boolean rateBlocks) {
        if ((agents != null || agentKeystore != null) && !"jmeter".equals(driver)) {
            throw new UsageException((agents != null ? "--agents" : "--agent-keystore") + ": JMeter's agents; add --driver jmeter");
        }
        return switch (driver) {
            case "hyperfoil" -> new Hyperfoil();
            case "jmeter" -> {
                if (inRounds && agents != null) {
                    throw new UsageException("--agents: JMeter's agents run no interleaved rounds (each would keep its own); use --design sequential");
                }
                if (inRounds && rateBlocks) {
                    throw new UsageException("--driver jmeter: the paired design's rate blocks need the Hyperfoil driver; use --profile fixed or --design sequential");
                }
                JmeterAgents on = agents == null ? JmeterAgents.NONE : JmeterAgents.parse(agents, agentKeystore);
                on.requireReachable();
                yield new Jmeter(Home.detect().jmeter(), on);
            }
            default -> throw new UsageException("--driver " + driver + ": expected hyperfoil or jmeter");
        };
    }
}
