package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.process.RunProcesses;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "clean", mixinStandardHelpOptions = true,
        description = {"Stop what a lab that died (SIGKILL, the OOM killer, a CI timeout) left running, and mark its runs abandoned.",
                "Reads the record in each run's directory and marks the run's results.json; every ./lab run does this first by itself."})
public final class CleanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (RunProcesses.cleanUp(Home.detect().results(), line -> out.println("clean: " + line)) == 0) {
            out.println("clean: no run died with anything left to stop");
        }
        return 0;
    }
}
