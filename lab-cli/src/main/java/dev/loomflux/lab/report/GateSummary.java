package dev.loomflux.lab.report;

import dev.loomflux.lab.gate.Gate;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.verdict.CategoryDifferences;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A regression gate's answer as Markdown, for a pull request's comment or GitHub's step summary (docs/ci.md): its headline,
 * head against base per metric, the base against itself, and where the builds answered differently.
 */
public final class GateSummary {
    private GateSummary() {
    }

    /** @param baseGiven what BASE was given as (a target's name, a jar's file name); {@code headGiven} likewise */
    public static String markdown(Gate g, RunRecord run, String baseGiven, String headGiven) {
        List<Section> sections = new ArrayList<>();
        List<Paragraph> lead = new ArrayList<>();
        lead.add(Paragraph.plain("**" + g.headline().replaceFirst("^ab: ", "") + "** (exit " + g.exitCode() + ")"));
        g.behaviour().forEach(b -> lead.add(Paragraph.bullet(b)));
        sections.add(new Section("", lead, List.of(new Table(g.head() + " against " + g.base() + ": a regression when the whole interval lies beyond "
                + num(g.marginPct()) + "% on the worse side; the " + g.checks().size() + " intervals hold 95% together, each drawn at 1/"
                + g.checks().size() + " of the run's level", List.of("where", "metric", g.head() + " / " + g.base(), "simultaneous 95% CI", "rounds", "verdict"),
                rows(g.checks()))), List.of()));
        List<Table> cpu = categories(g, run);
        if (!cpu.isEmpty()) {
            sections.add(new Section("CPU per request by category", List.of(Paragraph.plain("Head minus base in µs of CPU per request, per category of "
                    + "the JVMs' CPU samples, over the rounds; moved: the whole interval (taken together over the categories) beyond 5% of their CPU per "
                    + "request (docs/telemetry.md, \"The split with intervals\").")), cpu, List.of()));
        }
        sections.add(new Section("Machine check (A/A)", List.of(Paragraph.plain("The base's two sets of JVMs against each other in the same rounds: "
                + "a difference here is the machine's or the JVMs', and no verdict above is given while one shows.")),
                List.of(new Table("", List.of("where", "metric", g.base() + "#2 / " + g.base() + "#1", "simultaneous 95% CI", "rounds", "verdict"), rows(g.aa()))), List.of()));
        sections.add(new Section("Run", List.of(Paragraph.plain("Run " + run.header().runId() + ", its report in results/" + run.header().runId() + "/report.html.")),
                List.of(), List.of()));
        return MarkdownReport.render("loomflux ab: " + g.head() + " (" + headGiven + ") against " + g.base() + " (" + baseGiven + ")", sections);
    }

    /** Per scenario with CPU samples per category, head minus base in each category. */
    private static List<Table> categories(Gate g, RunRecord run) {
        List<Table> out = new ArrayList<>();
        List<BlockRecord> blocks = run.paired().blocks().stream().filter(b -> b.cell() == null).toList();
        for (String scenario : blocks.stream().map(BlockRecord::scenario).distinct().toList()) {
            List<CategoryDifferences.Difference> d = CategoryDifferences.of(blocks.stream().filter(b -> b.scenario().equals(scenario)).toList(), g.head(), g.base());
            if (d.isEmpty() || !d.stream().allMatch(CategoryDifferences.Difference::known)) {
                continue;
            }
            out.add(new Table(scenario, List.of("category", g.head() + " - " + g.base() + " (µs)", "interval", "moved"), d.stream().map(x -> List.of(x.category(),
                    String.format(Locale.ROOT, "%+.1f", x.estimate()), String.format(Locale.ROOT, "%+.1f to %+.1f", x.low(), x.high()),
                    x.differs() ? "yes" : "no")).toList()));
        }
        return out;
    }

    private static List<List<String>> rows(List<Gate.Check> checks) {
        return checks.stream().map(c -> List.of(c.where(), c.metric(), c.ratio() == null ? "" : String.format(Locale.ROOT, "%.3f", c.ratio()),
                c.low() == null ? "" : String.format(Locale.ROOT, "%.3f-%.3f", c.low(), c.high()), String.valueOf(c.rounds()),
                c.outcome().name().toLowerCase(Locale.ROOT) + (c.note() == null ? "" : " (" + c.note() + ")"))).toList();
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
