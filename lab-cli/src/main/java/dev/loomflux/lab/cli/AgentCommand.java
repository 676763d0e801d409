package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.driver.jmeter.JmeterAgents;
import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** A JMeter agent on a load host, for ./lab run --driver jmeter --agents HOST:PORT,... on the lab's host (docs/scale-out.md). */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"Run a JMeter agent (jmeter-server) for ./lab run --driver jmeter --agents HOST:PORT,... on another host.",
                "It listens on --bind only, over RMI with SSL and client certificates from --keystore, made there when missing."})
public final class AgentCommand implements Callable<Integer> {
    @Option(names = "--bind", required = true, paramLabel = "HOST:PORT", description = "The address the lab reaches this agent at, and the only one it listens on.")
    String bind;

    @Option(names = "--keystore", defaultValue = "agents.p12", paramLabel = "FILE",
            description = "Keystore of the agents and the lab (the same file everywhere); made when missing. Default: ${DEFAULT-VALUE}.")
    Path keystore;

    @Spec
    CommandSpec spec;

    private final LabProcesses processes;

    public AgentCommand(LabProcesses processes) {
        this.processes = processes;
    }

    @Override
    public Integer call() {
        Home home = Home.detect();
        String port = bind.substring(bind.lastIndexOf(':') + 1);
        return JmeterAgents.serve(processes, home.jmeter(), bind, keystore, home.results().resolve("agent-" + (port.matches("\\d{1,5}") ? port : "bad")),
                spec.commandLine().getOut());
    }
}
