package dev.loomflux.lab.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/** The closing console table: one row per target x scenario. */
public final class Summary {
    private Summary() {
    }

    public static void print(List<Result> results, Consumer<String> out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TARGET", "SCENARIO", "RPS", "P50 MS", "P99 MS", "MAX MS", "ERRORS", "STEADY AFTER", "NOTE"});
        for (Result r : results) {
            // A sweep's cell: the scenario's name carries its request parameters, not the load's.
            String scenario = r.scenario() + (r.key().cell() == null ? "" : " " + r.key().cell());
            if (!r.ok()) {
                String error = String.valueOf(r.outcome().error());
                rows.add(new String[] {r.target(), scenario, "-", "-", "-", "-", "-", "-",
                        "FAILED: " + (error.length() > 80 ? error.substring(0, 77) + "..." : error)});
                continue;
            }
            List<String> notes = new ArrayList<>();
            if (r.checks().driver() != null && r.checks().driver().saturated()) {
                notes.add("driver saturated");
            }
            if (Boolean.TRUE.equals(r.load().behindSchedule())) {
                notes.add("driver behind schedule");
            }
            SteadyState steady = r.checks().steadyState();
            if (steady != null && steady.drift() != null && steady.drift().drifting()) {
                notes.add("drifting: no verdict");
            }
            boolean warmBefore = warmFromCellBefore(r);
            String after = steady == null || warmBefore ? "-" : steady.reached() ? steady.seconds() + " s" : "NOT in " + (steady.warmupS() == null ? "-" : Math.round(steady.warmupS())) + " s";
            if (warmBefore) {
                notes.add("warm from the cell before");
            } else if (steady != null && !steady.reached() && steady.steady()) {
                notes.add("warmup not steady; rounds flat");
            } else if (steady != null && !steady.reached()) {
                notes.add("not steady: no verdict");
            }
            rows.add(new String[] {r.target(), scenario, str(r.load().throughputRps()), str(r.load().latencyMs().p50()), str(r.load().latencyMs().p99()),
                    str(r.load().latencyMs().max()), str(r.load().errors().total()), after, String.join(", ", notes)});
        }
        Tables.plain(rows, Set.of(2, 3, 4, 5, 6, 7)).forEach(out);
    }

    /**
     * A cell measured without a warmup of its own: a capacity ladder's later rungs, whose JVMs come warm from the rung before and
     * whose lead-in rounds settle them (docs/guide.md, "Capacity in paired rounds"). Not "not steady": it was not warmed.
     */
    public static boolean warmFromCellBefore(Result r) {
        SteadyState ss = r.checks().steadyState();
        return ss != null && !ss.reached() && ss.warmupS() != null && ss.warmupS() == 0 && r.key().cell() != null;
    }

    /** Medians with their CIs, then one verdict line per scenario, metric and pair of targets. */
    public static void printRepeats(RepeatSummary summary, Consumer<String> out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TARGET", "SCENARIO", "METRIC", "N", "MEDIAN", "95% CI", "MIN-MAX"});
        for (RepeatSummary.Median e : summary.estimates()) {
            rows.add(new String[] {e.target(), e.where(), e.metric(), str(e.n()), str(e.median()), e.ciLow() + " - " + e.ciHigh(),
                    e.min() + " - " + e.max()});
        }
        Tables.plain(rows, Set.of(3, 4)).forEach(out);
        for (RepeatSummary.PairVerdict v : summary.verdicts()) {
            out.accept("verdict " + v.where() + (v.request() == null ? "" : " (" + v.request() + ")") + " " + v.metric() + ", " + v.a() + " vs " + v.b()
                    + ": " + v.text());
        }
    }

    private static String str(Object o) {
        return o == null ? "-" : o.toString();
    }
}
