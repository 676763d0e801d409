package dev.loomflux.lab.result;

import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * results.json "capacity_summary": the capacity of one target x scenario over several searches, each
 * in a fresh JVM ({@code ./lab capacity --repeat N}): their median, range and spread. One search is
 * one JVM, and fresh JVMs of one target settled 2x apart on this machine (docs/steady-state.md), so
 * one search is no more a capacity than one run is a throughput.
 *
 * @param spreadPct how far apart the searches landed, relative to their median: what a second run may differ by
 */
public record CapacityMedian(String target, String scenario, String slo, int n, double medianRps, double minRps, double maxRps, Double spreadPct,
                             boolean reachedMax) {

    public static List<CapacityMedian> of(List<CapacitySearchResult> searches) {
        Map<String, List<CapacitySearchResult>> byCell = new LinkedHashMap<>();
        for (CapacitySearchResult c : searches) {
            byCell.computeIfAbsent(c.target() + "\n" + c.scenario(), k -> new ArrayList<>()).add(c);
        }
        List<CapacityMedian> out = new ArrayList<>();
        byCell.forEach((key, cs) -> {
            Estimate e = Stats.summarize(cs.stream().mapToDouble(CapacitySearchResult::capacityRps).toArray());
            CapacitySearchResult first = cs.get(0);
            out.add(new CapacityMedian(first.target(), first.scenario(), first.slo(), e.n(), e.median(), e.min(), e.max(),
                    e.median() == 0 ? null : Math.round((e.max() - e.min()) / e.median() * 1000) / 10.0,
                    cs.stream().anyMatch(CapacitySearchResult::reachedMax)));
        });
        return out;
    }

    /** "capacity mvc gateway-delay20: median 1500 rps of 3 searches (1000-1500, spread 33.3%) meets p99<50ms" */
    public String describe() {
        return "capacity " + target + " " + scenario + ": median " + Math.round(medianRps) + " rps of " + n + " searches (" + Math.round(minRps)
                + "-" + Math.round(maxRps) + (spreadPct == null ? "" : ", spread " + spreadPct + "%") + ") meets " + slo
                + (reachedMax ? " (a search reached the --max-rps limit; the real capacity may be higher)" : "");
    }
}
