package dev.loomflux.lab.driver;

import dev.loomflux.lab.experiment.DriverTraits;
import dev.loomflux.lab.process.LabProcesses;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * A load driver as it describes itself ({@link DriverTraits}: name, capabilities, settings), with its factory and the
 * report's words for it. Each driver's lives in its own package; the registry (drivers.Drivers) lists them, one line each
 * (docs/guide.md, "The code in detail").
 */
public interface DriverType extends DriverTraits {
    /**
     * A driver for one run, checked before anything starts. The CLI has already checked the setup against the capabilities:
     * agents or a plan come only to a driver that takes them.
     *
     * @throws dev.loomflux.lab.UsageException naming the flag or field that is wrong
     */
    LoadDriver create(DriverSetup setup);

    /**
     * The report's configuration row for a run on it, e.g. "Hyperfoil 0.25, embedded in the lab".
     *
     * @param version       the driver's version as the run recorded it; "" when it did not
     * @param agentsPerLoad each load's agents as the run recorded them (their addresses), for a driver with agents; empty otherwise
     */
    String configuration(String version, List<List<String>> agentsPerLoad);

    /** For a driver with agents ({@link Capability#AGENTS}): ./lab agent's help, a one-sentence summary, then its details. */
    default List<String> agentHelp() {
        throw new UnsupportedOperationException(name() + " has no agents");
    }

    /**
     * For a driver with agents ({@link Capability#AGENTS}): runs one agent on this host in the foreground until it ends
     * (./lab agent, Ctrl-C).
     *
     * @param owner    stops the agent when the lab is stopped
     * @param bind     HOST:PORT, the address the lab reaches it at and the only one it listens on (--bind)
     * @param keystore the agents' and the lab's keystore, made there when missing
     * @param logs     where the agent's logs go
     * @return the agent's exit code
     */
    default int serveAgent(LabProcesses owner, String bind, Path keystore, Path logs, PrintWriter out) {
        throw new UnsupportedOperationException(name() + " has no agents");
    }
}
