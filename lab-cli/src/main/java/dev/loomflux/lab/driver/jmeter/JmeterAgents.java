package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.DriverSetup;
import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where JMeter runs a load: in one local process (none), on agents the lab starts on loopback for each
 * load, or on agents a user started on other hosts ({@code ./lab agent}), reached over JMeter's RMI
 * with SSL and client certificates from the keystore they were started with.
 *
 * @param local    agents the lab starts on 127.0.0.1 for each load; 0 when none or remote
 * @param remote   HOST:PORT of agents a user started; empty when none or local
 * @param keystore the remote agents' keystore (./lab agent makes it); null for local agents, which get one per load
 */
public record JmeterAgents(int local, List<String> remote, Path keystore) {
    public static final JmeterAgents NONE = new JmeterAgents(0, List.of(), null);
    /** Each local agent is a JVM beside the lab's and the targets': more than a few only measure the machine. */
    static final int MAX_LOCAL = 8;

    public JmeterAgents {
        remote = List.copyOf(remote);
    }

    /**
     * {@code N} (local agents) or {@code HOST:PORT,...} (agents started with ./lab agent, which need their keystore).
     *
     * @throws UsageException naming the field of {@code given} that is wrong
     */
    public static JmeterAgents parse(DriverSetup.Agents given) {
        String v = given.value().strip();
        Path keystore = given.keystore();
        if (v.matches("\\d+")) {
            int n = Integer.parseInt(v);
            if (n < 1 || n > MAX_LOCAL) {
                throw new UsageException(given.where() + ": expected 1.." + MAX_LOCAL + " local agents, or HOST:PORT,... of agents started with ./lab agent");
            }
            return new JmeterAgents(n, List.of(), null);
        }
        List<String> addresses = new ArrayList<>();
        for (String a : v.split(",")) {
            addresses.add(address(a.strip(), given.where()));
        }
        if (addresses.stream().distinct().count() != addresses.size()) {
            throw new UsageException(given.where() + ": an agent is named twice");
        }
        if (keystore == null) {
            throw new UsageException(given.where() + ": agents on other hosts need " + given.keystoreKey() + ", the keystore they were started with (./lab agent)");
        }
        if (!Files.isReadable(keystore)) {
            throw new UsageException(given.keystoreWhere() + ": no such readable file");
        }
        return new JmeterAgents(0, addresses, keystore);
    }

    /** HOST:PORT with a port in 1..65535; a one-line error naming {@code field} otherwise. */
    static String address(String hostPort, String field) {
        int colon = hostPort.lastIndexOf(':');
        String port = colon < 0 ? "" : hostPort.substring(colon + 1);
        if (colon <= 0 || !port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535
                || !hostPort.substring(0, colon).matches("[A-Za-z0-9.\\-\\[\\]:]+")) {
            throw new UsageException(field + ": '" + hostPort + "' is not HOST:PORT with a port in 1..65535");
        }
        return hostPort;
    }

    /**
     * What the lab checks of agents on other hosts before anything starts: each answers, then each runs the lab's check plan
     * over JMeter's RMI, on the lab's JMeter version, and reads the lab's clock closely enough (docs/scale-out.md).
     *
     * @throws UsageException naming {@code field} and the first agent on another host that cannot run the load
     */
    public void requireReady(String field, LabProcesses owner, Path home, String jmeterVersion) {
        for (String a : remote) {
            String why = JmeterCluster.unreachable(a);
            if (why != null) {
                throw new UsageException(field + ": " + why);
            }
        }
        if (!remote.isEmpty()) {
            String why = JmeterCluster.check(owner, home, this, jmeterVersion);
            if (why != null) {
                throw new UsageException(field + ": " + why);
            }
        }
    }

    public boolean distributed() {
        return local > 0 || !remote.isEmpty();
    }

    /** How many run each load: 1 without agents. */
    public int count() {
        return distributed() ? local + remote.size() : 1;
    }

    /**
     * Runs one agent in the foreground until it ends (Ctrl-C): bound to {@code address} only, RMI over SSL with the
     * keystore at {@code keystore}, made there first when it does not exist (copy it to the lab's host and every agent).
     *
     * @param owner stops the agent when the lab is stopped (Ctrl-C)
     * @param logs  where the agent's logs go
     * @return the agent's exit code
     */
    static int serve(LabProcesses owner, Path home, String address, Path keystore, Path logs, java.io.PrintWriter out) {
        address(address, "--bind");
        try {
            Files.createDirectories(logs);
            if (!Files.exists(keystore)) {
                JmeterCluster.makeKeystore(keystore, JmeterCluster.AGENT_KEYSTORE_PASSWORD);
                out.println("agent: made " + keystore + " (readable by you only); give the same file to the lab (--agent-keystore) and to every agent");
            }
            Path properties = logs.resolve("ssl.properties");
            JmeterCluster.writeProperties(properties, keystore, JmeterCluster.AGENT_KEYSTORE_PASSWORD);
            var agent = JmeterCluster.startAgent(owner, home, address, properties, logs.resolve("jmeter-agent.log"));
            JmeterCluster.awaitAgent(agent, address);
            out.println("agent: listening on " + address + " (JMeter RMI over SSL, clients need the keystore); logs in " + logs + "; Ctrl-C stops it");
            out.flush();
            return agent.onExit().join().exitValue();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
