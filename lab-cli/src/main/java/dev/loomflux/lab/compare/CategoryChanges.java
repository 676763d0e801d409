package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.CpuProfile;
import dev.loomflux.lab.result.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the CPU per request moved from run A to run B: per target x scenario (x set or repeat) in both whose results have a
 * profile with µs per request, each category's µs in A and in B. A category neither run spent anything in is left out. No
 * threshold applies: each figure is one result's samples times its CPU per request, with no interval (docs/telemetry.md);
 * the CPU-per-request row of the main table says whether the total moved.
 */
public final class CategoryChanges {
    public static final String TITLE = "CPU per request by category (each result's profile samples times its CPU per request, µs; no interval)";

    private CategoryChanges() {
    }

    /** The table, its header first; only the header when no pair has profiles on both sides. */
    public static List<String[]> table(RunRecord runA, RunRecord runB) {
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"target", "scenario", "category", "A", "B", "change"});
        for (Pairs.Pair p : Pairs.of(runA, runB).matched()) {
            Map<String, Double> a = usPerRequest(p.a().telemetry().profile());
            Map<String, Double> b = usPerRequest(p.b().telemetry().profile());
            if (a == null || b == null) {
                continue;
            }
            for (String category : a.keySet()) {
                double ua = a.get(category);
                Double ub = b.get(category);
                if (ub != null && (ua > 0 || ub > 0)) {
                    out.add(new String[] {p.target(), p.where(), category, Comparison.fmt(ua), Comparison.fmt(ub),
                            String.format(Locale.ROOT, "%+.2f", ub - ua)});
                }
            }
        }
        return out;
    }

    /** @return null without a profile or without µs per request (a result with no CPU figure) */
    private static Map<String, Double> usPerRequest(CpuProfile p) {
        return p == null ? null : p.usPerRequest();
    }
}
