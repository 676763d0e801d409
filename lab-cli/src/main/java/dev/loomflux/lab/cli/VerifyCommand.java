package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.verify.CheckResult;
import dev.loomflux.lab.verify.Verifier;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Start each target with the stub and PostgreSQL and check every endpoint, before any load.",
                "Checks status, content type, body, I/O timing and bad input; exits 1 if any check fails."})
public final class VerifyCommand implements Callable<Integer> {
    @Mixin
    TargetOptions targets;

    @Mixin
    JvmOptions jvm;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    private final LabProcesses processes;

    public VerifyCommand(LabProcesses processes) {
        this.processes = processes;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Verifier verifier = new Verifier(processes, Home.detect(), targets.select(), jvm.settings(), db, out);
        List<CheckResult> results = verifier.run();
        if (processes.stopping()) {
            out.println("verify: interrupted");
            return 130;
        }
        Verifier.printTable(results, out);
        long failed = results.stream().filter(r -> !r.passed()).count();
        out.println(failed == 0
                ? "verify: all " + results.size() + " checks passed"
                : "verify: " + failed + " of " + results.size() + " checks FAILED");
        return failed == 0 ? 0 : 1;
    }
}
