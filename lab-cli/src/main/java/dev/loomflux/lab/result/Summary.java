package dev.loomflux.lab.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** The closing console table: one row per target x scenario. */
public final class Summary {
    private Summary() {
    }

    @SuppressWarnings("unchecked")
    public static void print(List<Map<String, Object>> results, Consumer<String> out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TARGET", "SCENARIO", "RPS", "P50 MS", "P99 MS", "MAX MS", "ERRORS", "STEADY AFTER", "NOTE"});
        for (Map<String, Object> r : results) {
            if (!"ok".equals(r.get("status"))) {
                String error = String.valueOf(r.get("error"));
                rows.add(new String[] {str(r.get("target")), str(r.get("scenario")), "-", "-", "-", "-", "-", "-",
                        "FAILED: " + (error.length() > 80 ? error.substring(0, 77) + "..." : error)});
                continue;
            }
            Map<String, Object> lat = (Map<String, Object>) r.get("latency_ms");
            Map<String, Object> err = (Map<String, Object>) r.get("errors");
            Map<String, Object> drv = (Map<String, Object>) r.get("driver");
            List<String> notes = new ArrayList<>();
            if (drv != null && Boolean.TRUE.equals(drv.get("saturated"))) {
                notes.add("driver saturated");
            }
            if (Boolean.TRUE.equals(r.get("behind_schedule"))) {
                notes.add("driver behind schedule");
            }
            Map<String, Object> steady = (Map<String, Object>) r.get("steady_state");
            Map<String, Object> drift = steady == null ? null : (Map<String, Object>) steady.get("drift");
            if (drift != null && Boolean.TRUE.equals(drift.get("drifting"))) {
                notes.add("drifting: no verdict");
            }
            String after = steady == null ? "-" : Boolean.TRUE.equals(steady.get("reached")) ? steady.get("seconds") + " s"
                    : "NOT in " + Math.round(((Number) steady.get("warmup_s")).doubleValue()) + " s";
            if (steady != null && !Boolean.TRUE.equals(steady.get("reached"))) {
                notes.add("not steady: no verdict");
            }
            rows.add(new String[] {str(r.get("target")), str(r.get("scenario")), str(r.get("throughput_rps")),
                    str(lat.get("p50")), str(lat.get("p99")), str(lat.get("max")), str(err.get("total")), after, String.join(", ", notes)});
        }
        Tables.plain(rows, Set.of(2, 3, 4, 5, 6, 7)).forEach(out);
    }

    /** Medians with their CIs, then one verdict line per scenario, metric and pair of targets. */
    @SuppressWarnings("unchecked")
    public static void printRepeats(Map<String, Object> summary, Consumer<String> out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TARGET", "SCENARIO", "METRIC", "N", "MEDIAN", "95% CI", "MIN-MAX"});
        for (Map<String, Object> e : (List<Map<String, Object>>) summary.get("estimates")) {
            rows.add(new String[] {str(e.get("target")), str(e.get("scenario")), str(e.get("metric")), str(e.get("n")), str(e.get("median")),
                    e.get("ci_low") + " - " + e.get("ci_high"), e.get("min") + " - " + e.get("max")});
        }
        Tables.plain(rows, Set.of(3, 4)).forEach(out);
        for (Map<String, Object> v : (List<Map<String, Object>>) summary.get("verdicts")) {
            out.accept("verdict " + v.get("scenario") + " " + v.get("metric") + ", " + v.get("a") + " vs " + v.get("b") + ": " + v.get("text"));
        }
    }

    private static String str(Object o) {
        return o == null ? "-" : o.toString();
    }
}
