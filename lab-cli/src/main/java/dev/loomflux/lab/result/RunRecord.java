package dev.loomflux.lab.result;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A whole results.json (docs/results-schema.md): the run, where and what it ran, every result in the
 * order it finished, and the sections over them (summary over repeats, capacity searches, the rounds of
 * the paired design and the comparisons drawn from them).
 */
public record RunRecord(int schema, String runId, String status, String startedAt, String finishedAt, Environment environment,
                        ExperimentDescription experiment, List<Result> results, RepeatSummary summary, List<CapacitySearchResult> capacity,
                        List<CapacityMedian> capacitySummary, SweepMap sweep, List<BlockRecord> blocks, List<PairComparison> comparisons) {
    /**
     * Schema 11 adds each agent's CPU and names the sweep's RSS growth per 1,000 users as such (rss_mb_per_1000_connections before, read as the new name). Schema 10 adds the driver's agents (JMeter's, --agents) to a result's driver section. Schema 9 adds the experiment's load driver and calls a result's plan file "plan" (it was "hyperfoil_yaml"). Schema 8 adds the profile's think time and the blocks' think_ms. Schema 6 adds each result's in_flight and measures blocks' little_users as time in flight. Schema 3 adds the paired design's blocks and comparisons, and the experiment's design; schema 2 left out
     * fields that do not apply, where schema 1 wrote null.
     */
    public static final int SCHEMA = 11;

    public RunRecord {
        results = results == null ? List.of() : List.copyOf(results);
    }

    /** @throws IOException unreadable, not JSON, or JSON without a results list (not a loomflux results.json) */
    public static RunRecord read(Path file) throws IOException {
        JsonNode tree = Json.MAPPER.readTree(file.toFile());
        if (!tree.path("results").isArray()) {
            throw new IOException("has no results list; is it a loomflux results.json?");
        }
        return Json.MAPPER.treeToValue(tree, RunRecord.class);
    }

    public int repeats() {
        return experiment == null || experiment.repeat() == null ? 1 : Math.max(1, experiment.repeat());
    }

    public boolean completed() {
        return "completed".equals(status);
    }
}
