package dev.loomflux.lab.result;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a paired run stopped taking rounds for one scenario (and sweep cell), and why: results.json's {@code stops}
 * (docs/results-schema.md; the rule: docs/statistics.md, "Stopping when the answer is known").
 *
 * @param cell    a sweep's cell; absent outside a sweep
 * @param rounds  measured rounds taken
 * @param cap     the most it could take ({@code --rounds})
 * @param reason  why the rounds stopped, in words
 * @param level   the two-sided level of the comparisons' intervals at the last look: what the looks before left of 5%
 * @param looks   each look taken: its round, level, and the comparisons still open after it
 * @param seconds from the scenario's (cell's) first warmup request to its last round's end: the time to its answer
 */
public record RoundsStop(String scenario, Map<String, Integer> cell, int rounds, int cap, String reason, double level, List<Look> looks, double seconds) {
    /** One look at the rounds: after {@code round} measured rounds, at {@code level}, {@code open} comparisons without an outcome. */
    public record Look(int round, double level, int open) {
    }

    public RoundsStop {
        cell = cell == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(cell));
        looks = List.copyOf(looks);
    }

    /** As {@link BlockRecord#where()}: "json", or "json users=50" in a sweep. */
    public String where() {
        return BlockRecord.where(scenario, cell);
    }
}
