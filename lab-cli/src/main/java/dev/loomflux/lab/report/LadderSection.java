package dev.loomflux.lab.report;

import dev.loomflux.lab.result.CapacityLadder;
import dev.loomflux.lab.result.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A paired capacity's part of the report: each target's capacity, every pair's ratio, and how each target did on each rung. */
final class LadderSection {
    private LadderSection() {
    }

    /** The scenario's ladder, or null when the run measured none for it. */
    static CapacityLadder of(RunRecord root, String scenario) {
        List<CapacityLadder> all = root.summaries().capacityLadder();
        return all == null ? null : all.stream().filter(l -> l.scenario().equals(scenario)).findFirst().orElse(null);
    }

    /** "capacity at p99<50ms: mvc holds 2,263 rps (95% CI 2,263-2,691), ...; mvc/webflux 1.41 (1.19-1.68): mvc holds more." */
    static String headline(CapacityLadder l) {
        List<String> targets = l.targets().stream().map(t -> t.target() + " " + t.describe()).toList();
        List<String> pairs = l.pairs().stream().map(CapacityLadder.Ratio::describe).toList();
        return "capacity at " + l.slo() + ", in paired rounds: " + String.join("; ", targets) + ". " + String.join("; ", pairs) + ".";
    }

    /** "11314 rps: 10629 good/s", or "not measured" */
    private static String overload(CapacityLadder.Target t, double times) {
        return t.overload().stream().filter(o -> o.times() == times).findFirst()
                .map(o -> Cells.num(o.rps()) + " rps: " + (o.goodputRps() == null ? "?" : Cells.num(Math.round(o.goodputRps()))) + " good/s"
                        + (o.errorPct() == null || o.errorPct() == 0 ? "" : ", " + Cells.num(o.errorPct()) + "% errors"))
                .orElse("no rung near");
    }

    static Section section(RunRecord root) {
        List<Table> tables = new ArrayList<>();
        for (CapacityLadder l : root.summaries().capacityLadder()) {
            tables.add(new Table(l.scenario() + ": each target's capacity, and past it (the rungs nearest 1.5x and 2x its capacity, within 20%)",
                    List.of("target", "holds rps", "misses at rps", "95% CI rps", "at 1.5x", "at 2x"),
                    l.targets().stream().map(t -> List.of(t.target(), t.holdsRps() == null ? "none" : Cells.num(t.holdsRps()),
                            t.failsRps() == null ? "no rung" : Cells.num(t.failsRps()),
                            (t.lowRps() == null ? "below the ladder" : Cells.num(t.lowRps())) + " - " + (t.highRps() == null ? "above the ladder" : Cells.num(t.highRps())),
                            overload(t, 1.5), overload(t, 2))).toList()));
            tables.add(new Table(l.scenario() + ": pairs", List.of("pair", "capacity ratio", "95% CI", "outcome"),
                    l.pairs().stream().map(p -> List.of(p.a() + " / " + p.b(), p.ratio() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", p.ratio()),
                            String.format(Locale.ROOT, "%.3f - %s", p.ciLow(), p.ciHigh() == null ? "unbounded" : String.format(Locale.ROOT, "%.3f", p.ciHigh())),
                            p.outcome())).toList()));
            List<String> header = new ArrayList<>(List.of("rung rps"));
            l.targets().forEach(t -> header.add(t.target()));
            List<List<String>> rows = new ArrayList<>();
            for (CapacityLadder.Rung r : l.rungs()) {
                List<String> row = new ArrayList<>(List.of(Cells.num(r.rps())));
                for (CapacityLadder.Target t : l.targets()) {
                    row.add(r.targets().stream().filter(a -> a.target().equals(t.target())).findFirst()
                            .map(a -> a.outcome() + (a.medianMs() == null ? "" : ", " + Cells.num(a.medianMs()) + " ms")
                                    + (a.goodputRps() == null ? "" : ", " + Cells.num(Math.round(a.goodputRps())) + " good/s")
                                    + (a.errorPct() == null || a.errorPct() == 0 ? "" : ", " + Cells.num(a.errorPct()) + "% errors")).orElse(""));
                }
                rows.add(row);
            }
            tables.add(new Table(l.scenario() + ": every rung, the median block's latency at the SLO's percentile, its responses without error per "
                    + "second (goodput: past a knee, what the target still serves) and its errors", header, rows));
        }
        CapacityLadder first = root.summaries().capacityLadder().get(0);
        return new Section("Capacity at the SLO, in paired rounds", List.of(Paragraph.plain("Every target measured at each rung of open-model rates in "
                + "the same interleaved rounds (" + first.rounds() + " per rung). " + first.method() + "."
                + (first.driverLimit() == null ? "" : " The driver could not offer " + first.driverLimit() + " rps: no capacity is read at or above it."))),
                tables, List.of());
    }
}
