package dev.loomflux.lab.result;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
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
                        List<CapacityMedian> capacitySummary, SweepMap sweep, List<BlockRecord> blocks, List<PairComparison> comparisons,
                        List<RoundsStop> stops) {
    /** The results.json schema this lab writes, {@value}; history, one entry per version: docs/results-schema.md. */
    public static final int SCHEMA = 18;

    /** Without stops: a run of fixed rounds, or of schema 16 and before. */
    public RunRecord(int schema, String runId, String status, String startedAt, String finishedAt, Environment environment, ExperimentDescription experiment,
                     List<Result> results, RepeatSummary summary, List<CapacitySearchResult> capacity, List<CapacityMedian> capacitySummary, SweepMap sweep,
                     List<BlockRecord> blocks, List<PairComparison> comparisons) {
        this(schema, runId, status, startedAt, finishedAt, environment, experiment, results, summary, capacity, capacitySummary, sweep, blocks, comparisons, null);
    }

    public RunRecord {
        results = results == null ? List.of() : List.copyOf(results);
    }

    /** @throws IOException unreadable, not JSON, JSON without a results list (not a loomflux results.json), or a field of the wrong kind, named */
    public static RunRecord read(Path file) throws IOException {
        return fromTree(Json.MAPPER.readTree(file.toFile()));
    }

    /** A results.json's tree, of any schema, as the records: {@link SchemaUpgrade} first rewrites an older one to the current names. */
    public static RunRecord fromTree(JsonNode tree) throws IOException {
        if (!tree.path("results").isArray()) {
            throw new IOException("has no results list; is it a loomflux results.json?");
        }
        try {
            return Json.MAPPER.treeToValue(SchemaUpgrade.toCurrent(tree.deepCopy()), RunRecord.class);
        } catch (JsonMappingException e) {
            throw new IOException(field(e) + ": " + (e instanceof MismatchedInputException m && m.getTargetType() != null && m.getTargetType().isRecord()
                    ? "expected an object (docs/results-schema.md)" : String.valueOf(e.getOriginalMessage()).lines().findFirst().orElse("")), e);
        }
    }

    /** Where in the file: "environment.hardware", "results[2].latency_ms". */
    private static String field(JsonMappingException e) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            out.append(r.getFieldName() != null ? (out.length() == 0 ? "" : ".") + r.getFieldName() : "[" + r.getIndex() + "]");
        }
        return out.length() == 0 ? "the document" : out.toString();
    }

    /** How many JVMs of each target the run measured: its sets in the paired design, its repeats in the sequential one. */
    public int jvmsPerTarget() {
        Integer jvms = experiment == null ? null : experiment.sets() != null ? experiment.sets() : experiment.repeat();
        return jvms == null ? 1 : Math.max(1, jvms);
    }

    public boolean completed() {
        return "completed".equals(status);
    }
}
