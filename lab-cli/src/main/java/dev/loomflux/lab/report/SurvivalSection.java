package dev.loomflux.lab.report;

import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.Survival;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whole shapes, the report's part: each target's deaths over its rounds and how it died, every pair's survival, and its peaks
 * and recovery after the shape's peak.
 */
final class SurvivalSection {
    private SurvivalSection() {
    }

    /** The scenario's survival (outside a sweep's cells), or null when no target died in it. */
    static Survival of(RunRecord root, String scenario) {
        return deaths(root).stream().filter(s -> s.scenario().equals(scenario) && s.cell() == null).findFirst().orElse(null);
    }

    /** The scenarios (and cells) some target died in: a verdict on survival to state before any ratio. */
    static List<Survival> deaths(RunRecord root) {
        List<Survival> all = root.paired().survival();
        return all == null ? List.of() : all.stream().filter(Survival::someDied).toList();
    }

    /** "on survival: webflux survives more than mvc-vt (p = 0.008); mvc-vt died in 5 of 5 rounds (95% CI 48-100%)." */
    static String headline(Survival s) {
        List<String> parts = new ArrayList<>(s.pairs().stream().filter(p -> !Survival.NEITHER_DIED.equals(p.outcome())).map(Survival.Pair::describe).toList());
        s.targets().stream().filter(t -> t.died() > 0).forEach(t -> parts.add(t.deaths()));
        return "on survival: " + String.join("; ", parts) + ".";
    }

    static Section section(RunRecord root) {
        List<Table> tables = new ArrayList<>();
        for (Survival s : root.paired().survival()) {
            tables.add(new Table(s.where() + ": each target's peaks over its blocks (medians) and its recovery after the shape's peak over the blocks "
                    + "it survived", List.of("target", "peak resident", "peak threads", "recovered after the peak", "median time to recover"),
                    s.targets().stream().map(t -> List.of(t.target(), t.peakRssMb() == null ? "" : Cells.num(t.peakRssMb()) + " MB",
                            t.peakThreads() == null ? "" : Cells.num(t.peakThreads()),
                            t.recovery() == null ? "not judged" : t.recovery().recovered() + " of " + t.recovery().judged(),
                            t.recovery() == null || t.recovery().medianS() == null ? "" : Cells.num(t.recovery().medianS()) + " s")).toList()));
            if (!s.someDied()) {
                continue;
            }
            tables.add(new Table(s.where() + ": deaths over the measured rounds, and how each target died (the medians over its deaths; memory, threads "
                    + "and open files at its last reading alive)", List.of("target", "died", "95% CI of the share that die", "how", "into the shape", "resident",
                    "threads", "open files"), s.targets().stream().map(t -> List.of(t.target(), t.died() + " of " + t.rounds(),
                    String.format(Locale.ROOT, "%.0f-%.0f%%", t.lowPct(), t.highPct()),
                    t.causes() == null ? "survived" : String.join("; ", t.causes().entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")").toList()),
                    t.diedAfterS() == null ? "" : Cells.num(t.diedAfterS()) + " s", t.rssMb() == null ? "" : Cells.num(t.rssMb()) + " MB",
                    t.threads() == null ? "" : Cells.num(t.threads()), t.openFiles() == null ? "" : Cells.num(t.openFiles()))).toList()));
            tables.add(new Table(s.where() + ": survival, pair by pair (Fisher's exact test, two-sided)", List.of("pair", "outcome", "p"),
                    s.pairs().stream().map(p -> List.of(p.a() + " / " + p.b(), Survival.WINNER.equals(p.outcome()) ? p.winner() + " survives more" : p.outcome(),
                            String.format(Locale.ROOT, "%.3f", p.p()))).toList()));
        }
        List<Paragraph> about = new ArrayList<>();
        if (!deaths(root).isEmpty()) {
            about.add(Paragraph.plain("A target that died in its block of a whole shape: its death is that block's outcome, "
                    + "the round still counts for the others, and a fresh JVM of it runs its next block. Its died blocks take part in no other comparison. "
                    + "A winner on survival died in a smaller share of its rounds at p < 0.05; four rounds are the fewest that can show one "
                    + "(docs/statistics.md, \"Survival\")."));
        }
        about.add(Paragraph.plain("Recovered after the peak: from some second after the shape's peak (where its load first fell from its most users) on, "
                + "every second's p99 stayed within twice the target's p99 under light load (its seconds before the shape passed a quarter of its peak's "
                + "users), before the block ended (docs/statistics.md, \"Recovery after the peak\")."));
        return new Section("Survival and recovery", about, tables, List.of());
    }
}
