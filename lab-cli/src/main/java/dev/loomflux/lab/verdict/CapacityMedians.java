package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws results.json's "capacity_summary" from repeated capacity searches ({@code ./lab capacity --repeat N}),
 * each in a fresh JVM: per target x scenario their median, range and spread (docs/steady-state.md).
 */
public final class CapacityMedians {
    private CapacityMedians() {
    }

    /** One per target x scenario, in the order of their first search. */
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
}
