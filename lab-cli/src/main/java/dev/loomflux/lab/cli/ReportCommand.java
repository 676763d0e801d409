package dev.loomflux.lab.cli;

import dev.loomflux.lab.report.Report;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Re-render report.md and report.html of a run directory from its results.json.")
public final class ReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN_DIR", description = "A run directory, e.g. results/20261122-090000-plaintext.")
    Path dir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Path html = Report.write(dir);
        spec.commandLine().getOut().println("report: " + html.resolveSibling("report.md"));
        spec.commandLine().getOut().println("report: " + html);
        return 0;
    }
}
