package dev.loomflux.lab.cli;

import dev.loomflux.lab.compare.CategoryChanges;
import dev.loomflux.lab.compare.Comparison;
import dev.loomflux.lab.compare.Conditions;
import dev.loomflux.lab.compare.HardwareDifference;
import dev.loomflux.lab.compare.PairedAgreement;
import dev.loomflux.lab.compare.Reproducibility;
import dev.loomflux.lab.compare.Threshold;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.Tables;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Each metric's change from run A to run B, per target x scenario (x set or repeat, x capacity step by offered rate) in both.",
                "Capacity runs are compared by the knee found too; results with CPU profiles by each category's µs of CPU per request.",
                "With --fail-on, exits 1 when a threshold is crossed (for CI); a result that was not steady never counts.",
                "With --reproducibility, two runs of one experiment side by side instead (bench/reproduce.sh)."})
public final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "A", description = "Baseline: a run directory or its results.json.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "Candidate: a run directory or its results.json.")
    Path b;

    @Parameters(index = "2..*", paramLabel = "MORE", description = "With --reproducibility: more runs of the same experiment (paired runs are compared all together).")
    List<Path> more = new ArrayList<>();

    @Option(names = "--fail-on", split = ",", paramLabel = "METRIC:+-N%",
            description = "Regression thresholds, e.g. p99:+10%%,throughput:-5%%. Metrics: throughput, mean, p50, p90, p99, max, errors, capacity (./lab capacity runs).")
    List<String> failOn = new ArrayList<>();

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the comparison as a Markdown table.")
    Path markdown;

    @Option(names = "--reproducibility",
            description = "Report how far two runs of the same experiment agree: ratios B/A, the 0.90-1.10 goal, verdicts or rankings. Always exits 0.")
    boolean reproducibility;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (reproducibility) {
            return reproducibility();
        }
        if (!more.isEmpty()) {
            throw new UsageException("compare takes two runs, A and B; more only with --reproducibility");
        }
        List<Threshold> thresholds = new ArrayList<>();
        failOn.forEach(t -> thresholds.add(Threshold.parse(t)));
        RunRecord runA = load(a, "A");
        RunRecord runB = load(b, "B");
        Comparison c = Comparison.of(runA, runB, thresholds);
        PairedAgreement verdicts = PairedAgreement.of(List.of(runA, runB));
        PrintWriter out = spec.commandLine().getOut();
        List<String[]> table = c.table();
        Tables.plain(table).forEach(out::println);
        c.unmatched().forEach(u -> out.println("not compared: " + u));
        List<String> conditions = measuredDifferently(runA, runB, "B");
        conditions.forEach(out::println);
        if (c.unsteadyLine() != null) {
            out.println(c.unsteadyLine());
        }
        List<String[]> categories = CategoryChanges.table(runA, runB);
        if (categories.size() > 1) {
            out.println();
            out.println(CategoryChanges.TITLE);
            Tables.plain(categories).forEach(out::println);
        }
        if (verdicts != null) {
            out.println();
            out.println(VERDICTS_TITLE);
            Tables.plain(verdicts.changesTable()).forEach(out::println);
            out.println(verdictsLine(verdicts) + HardwareDifference.judged(List.of(runA, runB)));
        }
        if (markdown != null) {
            List<String> md = new ArrayList<>(Tables.markdown(table));
            if (!conditions.isEmpty()) {
                md.add("");
                conditions.forEach(line -> md.add("- " + line));
            }
            if (c.unsteadyLine() != null) {
                md.add("");
                md.add(c.unsteadyLine());
            }
            if (categories.size() > 1) {
                md.addAll(List.of("", CategoryChanges.TITLE, ""));
                md.addAll(Tables.markdown(categories));
            }
            if (verdicts != null) {
                md.addAll(List.of("", VERDICTS_TITLE, ""));
                md.addAll(Tables.markdown(verdicts.changesTable()));
                md.addAll(List.of("", verdictsLine(verdicts) + HardwareDifference.judged(List.of(runA, runB))));
            }
            Files.writeString(markdown, String.join("\n", md) + "\n");
        }
        if (c.regressed()) {
            out.println("compare: REGRESSION against " + String.join(", ", failOn));
            out.flush();
            return 1;
        }
        if (thresholds.isEmpty()) {
            out.println("compare: done");
        } else if (c.uncountedBreaches() > 0) {
            out.println("compare: no threshold crossed by a steady result (" + String.join(", ", failOn) + "); "
                    + c.uncountedBreaches() + " crossing(s) by unsteady results not counted");
        } else {
            out.println("compare: no threshold crossed (" + String.join(", ", failOn) + ")");
        }
        out.flush();
        return 0;
    }

    /**
     * "measured differently: load driver: hyperfoil 0.25.2 in A, jmeter 5.6.3 in B", one line per difference, then
     * "measured on different hardware: ..." or "hardware unknown for A (...)" when so.
     */
    private static List<String> measuredDifferently(RunRecord a, RunRecord b, String nameB) {
        List<String> out = new ArrayList<>(Conditions.differences(a, b, nameB).stream()
                .map(d -> "measured differently (a change may be this, not the targets): " + d).toList());
        String hardware = HardwareDifference.line(a, b, nameB);
        if (hardware != null) {
            out.add(hardware);
        }
        return out;
    }

    private static final String VERDICTS_TITLE = "paired verdicts (results.json comparisons): each pair's ratio a/b (95% CI) and outcome in A and in B";

    private static String verdictsLine(PairedAgreement v) {
        return "verdicts: " + (v.changed() == 0 ? "none changed" : v.changed() + " changed") + " from A to B";
    }

    private Integer reproducibility() throws IOException {
        if (!failOn.isEmpty()) {
            throw new UsageException("--reproducibility is a report and never fails: drop --fail-on");
        }
        List<RunRecord> all = new ArrayList<>(List.of(load(a, "A"), load(b, "B")));
        for (int i = 0; i < more.size(); i++) {
            all.add(load(more.get(i), HardwareDifference.name(i + 2)));
        }
        Reproducibility r = Reproducibility.of(all.get(0), all.get(1));
        PairedAgreement paired = PairedAgreement.of(all);
        // Runs on different hardware are compared as machines as much as runs: every judgement says so.
        String hardware = HardwareDifference.judged(all);
        PrintWriter out = spec.commandLine().getOut();
        List<String> plain = render(r, paired, hardware, Tables::plain);
        plain.forEach(out::println);
        for (int i = 1; i < all.size(); i++) {
            measuredDifferently(all.get(0), all.get(i), HardwareDifference.name(i)).forEach(out::println);
        }
        out.flush();
        if (markdown != null) {
            Files.writeString(markdown, String.join("\n", render(r, paired, hardware, Tables::markdown)) + "\n");
        }
        return 0;
    }

    /** Blank lines end each table: in Markdown a text line right under a table would become one of its rows. */
    private static List<String> render(Reproducibility r, PairedAgreement paired, String hardware, Function<List<String[]>, List<String>> table) {
        List<String> lines = new ArrayList<>();
        if (paired != null) {
            // The paired design's answer is its per-pair ratios: how far they agree is what reproduces.
            lines.add("per-pair ratios of the paired comparisons (results.json comparisons), run by run:");
            lines.add("");
            lines.addAll(table.apply(paired.table()));
            lines.add("");
            lines.add("paired: " + paired.summary() + hardware);
            lines.add("");
            lines.add("absolute figures of the first two runs (the machine moves these; the ratios above are what the lab judges):");
            lines.add("");
        }
        lines.addAll(table.apply(r.table()));
        lines.add("");
        if (!r.mediansTable().isEmpty()) {
            lines.add("medians over repeats (summary.estimates), what the verdicts stand on:");
            lines.add("");
            lines.addAll(table.apply(r.mediansTable()));
            lines.add("");
        }
        List<String> notes = new ArrayList<>();
        r.unmatched().forEach(u -> notes.add("not compared: " + u));
        if (r.unsteadyLine() != null) {
            notes.add(r.unsteadyLine());
        }
        if (!notes.isEmpty()) {
            lines.addAll(notes);
            lines.add("");
        }
        lines.add(r.agreementTitle());
        lines.add("");
        lines.addAll(r.agreementTable().size() > 1 ? table.apply(r.agreementTable()) : List.of("(nothing to compare: fewer than 2 targets in both runs)"));
        lines.add("");
        lines.add("reproducibility: " + r.summary() + hardware);
        return lines;
    }

    private static RunRecord load(Path p, String which) {
        Path file = Files.isDirectory(p) ? p.resolve("results.json") : p;
        if (!Files.isRegularFile(file)) {
            throw new UsageException(which + ": " + file + " not found (give a run directory or its results.json)");
        }
        try {
            return RunRecord.read(file);
        } catch (IOException e) {
            throw new UsageException(which + ": " + file + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }
}
