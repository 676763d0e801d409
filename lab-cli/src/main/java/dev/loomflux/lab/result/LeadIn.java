package dev.loomflux.lab.result;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one scenario's (sweep cell's) lead-in rounds went: results.json's {@code lead_ins} (docs/results-schema.md). They end
 * once every JVM's JIT has been quiet for some rounds in a row, or at their cap (docs/steady-state.md, "Lead-in rounds that end
 * on evidence").
 *
 * @param cell        a sweep's cell; absent outside a sweep
 * @param rounds      lead-in rounds taken
 * @param cap         the most it could take ({@code --lead-in-rounds})
 * @param reason      why they ended, in words
 * @param compilerPct per lead-in round, the CPU (% of one CPU) the target JVMs' compiler threads took over its blocks' windows,
 *                    the mean of its blocks; null for a round without readings
 */
public record LeadIn(String scenario, Map<String, Integer> cell, int rounds, int cap, String reason, List<Double> compilerPct) {
    public LeadIn {
        cell = cell == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(cell));
        compilerPct = compilerPct == null ? List.of() : Collections.unmodifiableList(new java.util.ArrayList<>(compilerPct));
    }

    /** As {@link BlockRecord#where()}: "json", or "json users=50" in a sweep. */
    public String where() {
        return BlockRecord.where(scenario, cell);
    }
}
