package dev.loomflux.lab.cli;

import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.MachineLock;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** One lab per machine: a command that starts servers and load takes the machine first. */
public final class MachineOptions {
    private final LabProcesses processes;

    @Option(names = "--no-wait", description = "When another lab is measuring on this machine, refuse (exit 2) instead of waiting for it.")
    boolean noWait;

    public MachineOptions(LabProcesses processes) {
        this.processes = processes;
    }

    MachineLock take(String command, PrintWriter out) {
        return processes.takeMachine("./lab " + command, !noWait, line -> out.println("lab: " + line));
    }
}
