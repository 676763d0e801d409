package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.DriverTraits.Capability;
import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * An agent on a load host, for ./lab run --agents HOST:PORT,... on the lab's host (docs/scale-out.md): the agent of the driver
 * with agents, which serves it and describes it in the help ({@link DriverType#agentHelp}).
 */
@Command(name = "agent", mixinStandardHelpOptions = true, modelTransformer = AgentCommand.Help.class)
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
        DriverType driver = driver().orElseThrow(() -> new UsageException("no load driver of this lab runs agents"));
        Home home = Home.detect();
        String port = bind.substring(bind.lastIndexOf(':') + 1);
        return driver.serveAgent(processes, bind, keystore, home.results().resolve("agent-" + (port.matches("\\d{1,5}") ? port : "bad")),
                spec.commandLine().getOut());
    }

    /** The driver whose agent this runs: the registry's first with agents. */
    private static Optional<DriverType> driver() {
        return Drivers.ALL.with(Capability.AGENTS).stream().findFirst();
    }

    /** The help in the words of the driver with agents: picocli's annotations take constants only. */
    public static final class Help implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            spec.usageMessage().description(driver().map(DriverType::agentHelp).orElse(List.of("Run a load agent (no load driver of this lab has any)."))
                    .toArray(String[]::new));
            return spec;
        }
    }
}
