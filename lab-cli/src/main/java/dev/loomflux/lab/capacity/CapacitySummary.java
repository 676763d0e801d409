package dev.loomflux.lab.capacity;

import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The capacity of each target x scenario over several searches, each in a fresh JVM
 * ({@code ./lab capacity --repeat N}): their median, range and spread. One search is one JVM, and
 * fresh JVMs of one target settled 2x apart on this machine (docs/steady-state.md), so one search is
 * no more a capacity than one run is a throughput.
 */
public final class CapacitySummary {
    private CapacitySummary() {
    }

    /** @param searches the run's {@code capacity} entries (target, scenario, capacity_rps, reached_max) */
    public static List<Map<String, Object>> of(List<Map<String, Object>> searches) {
        Map<String, List<Map<String, Object>>> byCell = new LinkedHashMap<>();
        for (Map<String, Object> c : searches) {
            byCell.computeIfAbsent(c.get("target") + "\n" + c.get("scenario"), k -> new ArrayList<>()).add(c);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        byCell.forEach((key, cs) -> {
            double[] rps = cs.stream().mapToDouble(c -> ((Number) c.get("capacity_rps")).doubleValue()).toArray();
            Estimate e = Stats.summarize(rps);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("target", cs.get(0).get("target"));
            m.put("scenario", cs.get(0).get("scenario"));
            m.put("slo", cs.get(0).get("slo"));
            m.put("n", e.n());
            m.put("median_rps", e.median());
            m.put("min_rps", e.min());
            m.put("max_rps", e.max());
            // How far apart the searches landed, relative to their median: what a second run may differ by.
            m.put("spread_pct", e.median() == 0 ? null : Math.round((e.max() - e.min()) / e.median() * 1000) / 10.0);
            m.put("reached_max", cs.stream().anyMatch(c -> Boolean.TRUE.equals(c.get("reached_max"))));
            out.add(m);
        });
        return out;
    }

    /** "capacity mvc gateway-delay20: median 1500 rps of 3 searches (1000-1500, spread 33.3%) meets p99<50ms" */
    public static String describe(Map<String, Object> m) {
        return "capacity " + m.get("target") + " " + m.get("scenario") + ": median " + Math.round((Double) m.get("median_rps")) + " rps of "
                + m.get("n") + " searches (" + Math.round((Double) m.get("min_rps")) + "-" + Math.round((Double) m.get("max_rps"))
                + (m.get("spread_pct") == null ? "" : ", spread " + m.get("spread_pct") + "%") + ") meets " + m.get("slo")
                + (Boolean.TRUE.equals(m.get("reached_max")) ? " (a search reached the --max-rps limit; the real capacity may be higher)" : "");
    }
}
