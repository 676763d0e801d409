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
    /** The results.json schema this lab writes, {@value}; history, one entry per version: docs/results-schema.md. */
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
