package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.gate.Gate;
import dev.loomflux.lab.gate.History;
import dev.loomflux.lab.report.HistoryReport;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** ./lab history: the regression gates run here, side by side (docs/ci.md, "History"). */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"Show the regression gates run here (./lab ab), oldest first: per metric, head over base with its interval, gate by gate.",
                "Reads results/" + History.FILE + " and writes results/ab-history.md and results/ab-history.html beside it."})
public final class HistoryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Path results = Home.detect().results();
        Path file = results.resolve(History.FILE);
        if (!Files.isRegularFile(file)) {
            throw new UsageException(file + ": no gate yet; ./lab ab appends a line to it per gate");
        }
        List<History> gates = History.read(file);
        PrintWriter out = spec.commandLine().getOut();
        for (History h : gates) {
            for (Gate.Check c : h.checks()) {
                out.println(h.runId() + " " + h.label() + ": " + c.describe(h.label() + "/" + h.base()));
            }
        }
        out.println("history: " + gates.size() + (gates.size() == 1 ? " gate; " : " gates; ") + HistoryReport.write(gates, results));
        return 0;
    }
}
