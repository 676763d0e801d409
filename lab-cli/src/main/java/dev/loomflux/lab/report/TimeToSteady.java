package dev.loomflux.lab.report;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.LeadIn;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SteadyState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A paired run's time to steady: each JVM's warmup, its compile stage then its load stage (the scenario's own load until its
 * JIT was quiet, the rest of --warmup at most), and each scenario's lead-in rounds, how many of their cap and why they ended.
 * A JVM whose load stage ran out of its cap is named with what to set (docs/steady-state.md, "The report: time to steady and
 * the JIT per round").
 */
final class TimeToSteady {
    private TimeToSteady() {
    }

    /** The section, or null when no result has a steady_state and no scenario a lead-in. */
    static Section of(RunRecord root) {
        boolean sets = root.jvmsPerTarget() > 1;
        boolean cells = root.results().stream().anyMatch(r -> r.key().cell() != null);
        List<List<String>> rows = new ArrayList<>();
        List<Paragraph> capped = new ArrayList<>();
        for (Result r : root.results()) {
            SteadyState ss = r.checks().steadyState();
            if (ss == null || !r.ok() || r.key().step() != null) {
                continue;
            }
            List<String> row = new ArrayList<>(List.of(r.target()));
            if (sets) {
                row.add(String.valueOf(r.jvm()));
            }
            row.add(r.scenario());
            if (cells) {
                row.add(r.key().cell() == null ? "-" : r.cellLabel());
            }
            int compiled = ss.compileStage();
            int loaded = (ss.series().isEmpty() ? (int) Math.round(ss.warmupS() == null ? 0 : ss.warmupS()) : ss.series().size()) - compiled;
            row.addAll(List.of(compiled > 0 ? compiled + " s at " + ss.compileStageUsers() + " users" : "-",
                    ss.reached() ? "quiet after " + Cells.num(ss.seconds() - compiled) + " s"
                            : "at its cap after " + Cells.num(Math.max(0, loaded)) + " s, its JIT still compiling",
                    ss.reached() ? Cells.num(ss.seconds()) : "not within " + Cells.num(ss.warmupS()) + " s", Cells.num(ss.warmupS())));
            rows.add(row);
            if (!ss.reached()) {
                String who = r.target() + (sets ? " " + r.jvmLabel() : "") + " (" + BlockRecord.where(r.scenario(), r.key().cell()) + ")";
                capped.add(Paragraph.bullet(who + ": its load stage ran out of its cap, " + Cells.num(ss.warmupS()) + " s of warmup, with its JIT still "
                        + "compiling; set a longer --warmup" + (r.key().cell() == null ? longer(root.experiment().warmupS()) : "") + "."));
            }
        }
        List<String> header = new ArrayList<>(List.of("target"));
        if (sets) {
            header.add("set");
        }
        header.add("scenario");
        if (cells) {
            header.add("cell");
        }
        header.addAll(List.of("compile stage", "load stage", "s to steady", "warmup s"));
        List<List<String>> leadIns = new ArrayList<>();
        for (LeadIn l : root.paired().leadIns() == null ? List.<LeadIn>of() : root.paired().leadIns()) {
            leadIns.add(List.of(l.where(), l.rounds() + " of " + l.cap(), l.reason(),
                    l.compilerPct().isEmpty() ? "-" : String.join(", ", l.compilerPct().stream().map(p -> p == null ? "-" : String.format(Locale.ROOT, "%.1f", p)).toList())));
        }
        if (rows.isEmpty() && leadIns.isEmpty()) {
            return null;
        }
        List<Paragraph> paragraphs = new ArrayList<>(List.of(Paragraph.plain("Each JVM was warmed on its own: a compile stage at a few users until "
                + "its JIT was quiet, then the scenario's own load until its JIT was quiet by the steady rule's limits, the rest of --warmup at most "
                + "(its cap). Seconds to steady count from the first request, the compile stage included. Then all JVMs ran side by side in "
                + "lead-in rounds, unmeasured, until every JIT had been quiet for some rounds in a row, or their cap (--lead-in-rounds).")));
        paragraphs.addAll(capped);
        return new Section("Time to steady", paragraphs, List.of(new Table("Each JVM's warmup", header, rows),
                new Table("Lead-in rounds: how many of their cap, why they ended, and per round the CPU the target JVMs' compiler threads "
                        + "took over its blocks (% of one CPU)", List.of("scenario", "rounds", "why they ended", "compiler % per round"), leadIns)), List.of());
    }

    /**
     * " than its 75 s (e.g. --warmup 150s)": twice the cap as a start, since nothing tells how much longer the JIT needed; the
     * run's log and the warmup chart show how far it got.
     */
    private static String longer(double warmupS) {
        return warmupS <= 0 ? "" : " than its " + Cells.num(warmupS) + " s (e.g. --warmup " + Cells.num(2 * warmupS) + "s)";
    }
}
