package dev.loomflux.lab.main;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.cli.AbCommand;
import dev.loomflux.lab.cli.AgentCommand;
import dev.loomflux.lab.cli.CalibrateCommand;
import dev.loomflux.lab.cli.CapacityCommand;
import dev.loomflux.lab.cli.CleanCommand;
import dev.loomflux.lab.cli.ListCommand;
import dev.loomflux.lab.cli.ReportCommand;
import dev.loomflux.lab.cli.CompareCommand;
import dev.loomflux.lab.cli.HistoryCommand;
import dev.loomflux.lab.cli.RunCommand;
import dev.loomflux.lab.cli.SweepCommand;
import dev.loomflux.lab.cli.VerifyCommand;
import dev.loomflux.lab.process.LabProcesses;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "lab", mixinStandardHelpOptions = true, versionProvider = Lab.Version.class,
        description = "loomflux: measure Spring MVC (platform threads), MVC on virtual threads and WebFlux, honestly.",
        subcommands = {ListCommand.class, VerifyCommand.class, RunCommand.class, SweepCommand.class, CapacityCommand.class, CompareCommand.class, AbCommand.class, HistoryCommand.class, ReportCommand.class, CalibrateCommand.class, AgentCommand.class, CleanCommand.class, CommandLine.HelpCommand.class})
public final class Lab implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) throws InterruptedException {
        LabProcesses processes = new LabProcesses();
        int code = run(processes, new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
        if (processes.stopping()) {
            // A signal began the JVM's shutdown, which ends with 128 + that signal once the reaper is done; calling
            // System.exit here would race it and could exit with another code (docs/reliability.md, Ctrl-C).
            Thread.currentThread().join();
        }
        System.exit(code);
    }

    /**
     * Runs the lab in a JVM that goes on after it (a test's), with processes of its own that end with it.
     * Exit codes: 0 ok, 1 a check or run failed, 2 bad input.
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        try (LabProcesses processes = new LabProcesses()) {
            return run(processes, out, err, args);
        }
    }

    private static int run(LabProcesses processes, PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new Lab(), new Factory(processes));
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("lab: " + ex.getMessage()
                    + " (see: ./lab " + ex.getCommandLine().getCommandName() + " --help)");
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof UsageException) {
                cmd.getErr().println("lab: " + ex.getMessage());
                return 2;
            }
            if (ex instanceof LabException) {
                cmd.getErr().println("lab: " + ex.getMessage());
                return 1;
            }
            throw ex;
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * Makes the commands and their mixins as picocli asks for them: one whose constructor takes the lab's
     * {@link LabProcesses} gets this lab's, the rest picocli's default.
     */
    public record Factory(LabProcesses processes) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            for (Constructor<?> c : type.getConstructors()) {
                if (c.getParameterCount() == 1 && c.getParameterTypes()[0] == LabProcesses.class) {
                    return type.cast(c.newInstance(processes));
                }
            }
            return CommandLine.defaultFactory().create(type);
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Lab.class.getPackage().getImplementationVersion();
            return new String[] {"loomflux lab " + (v != null ? v : "(dev)")};
        }
    }
}
