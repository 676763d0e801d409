package dev.loomflux.lab.compare;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.Tables;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Each metric's change from run A to run B, per target x scenario in both.",
                "With --fail-on, exits 1 when a threshold is crossed (for CI)."})
public final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "A", description = "Baseline: a run directory or its results.json.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "Candidate: a run directory or its results.json.")
    Path b;

    @Option(names = "--fail-on", split = ",", paramLabel = "METRIC:+-N%",
            description = "Regression thresholds, e.g. p99:+10%,throughput:-5%. Metrics: throughput, mean, p50, p90, p99, max, errors.")
    List<String> failOn = new ArrayList<>();

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the comparison as a Markdown table.")
    Path markdown;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        List<Threshold> thresholds = new ArrayList<>();
        failOn.forEach(t -> thresholds.add(Threshold.parse(t)));
        Comparison c = Comparison.of(load(a, "A"), load(b, "B"), thresholds);
        PrintWriter out = spec.commandLine().getOut();
        List<String[]> table = c.table();
        Tables.plain(table).forEach(out::println);
        c.unmatched().forEach(u -> out.println("not compared: " + u));
        if (markdown != null) {
            Files.writeString(markdown, String.join("\n", Tables.markdown(table)) + "\n");
        }
        if (c.regressed()) {
            out.println("compare: REGRESSION against " + String.join(", ", failOn));
            out.flush();
            return 1;
        }
        out.println(thresholds.isEmpty() ? "compare: done" : "compare: no threshold crossed (" + String.join(", ", failOn) + ")");
        out.flush();
        return 0;
    }

    private static Map<String, Object> load(Path p, String which) {
        Path file = Files.isDirectory(p) ? p.resolve("results.json") : p;
        if (!Files.isRegularFile(file)) {
            throw new UsageException(which + ": " + file + " not found (give a run directory or its results.json)");
        }
        try {
            Map<String, Object> m = ResultsFile.read(file);
            if (!(m.get("results") instanceof List)) {
                throw new UsageException(which + ": " + file + " has no results list; is it a loomflux results.json?");
            }
            return m;
        } catch (IOException e) {
            throw new UsageException(which + ": " + file + " is not valid JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }
}
