package dev.loomflux.lab.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A whole results.json (docs/results-schema.md): the run, where and what it ran, every result in the
 * order it finished, and the sections over them (summary over repeats, capacity searches, the rounds of
 * the paired design and the comparisons drawn from them). Its parts are a Java grouping only: results.json has their
 * fields flat, at the top.
 */
public record RunRecord(@JsonUnwrapped Header header, Environment environment, ExperimentDescription experiment, List<Result> results,
                        @JsonUnwrapped Summaries summaries, @JsonUnwrapped PairedRounds paired) {
    /** The results.json schema this lab writes, {@value}; history, one entry per version: docs/results-schema.md. */
    public static final int SCHEMA = 18;

    public RunRecord {
        results = results == null ? List.of() : List.copyOf(results);
        summaries = summaries == null ? Summaries.NONE : summaries;
        paired = paired == null ? PairedRounds.NONE : paired;
    }

    /** @param status running, completed, interrupted or failed */
    public record Header(int schema, String runId, String status, String startedAt, String finishedAt) {
    }

    /**
     * What the run drew over its results: the summary over repeats, the capacity searches and their medians, a sweep's map, a
     * capacity ladder's capacities (paired).
     */
    public record Summaries(RepeatSummary summary, List<CapacitySearchResult> capacity, List<CapacityMedian> capacitySummary, SweepMap sweep,
                            List<CapacityLadder> capacityLadder) {
        public static final Summaries NONE = new Summaries(null, null, null, null, null);
    }

    /**
     * The paired design's rounds: every measured block, the comparisons drawn from them and, in rounds that stop at looks,
     * where they stopped, how each scenario's lead-in rounds went and, where a target died in a shape, survival compared;
     * null each in a sequential run.
     */
    public record PairedRounds(List<BlockRecord> blocks, List<PairComparison> comparisons, List<RoundsStop> stops, List<LeadIn> leadIns,
                               List<Survival> survival) {
        public static final PairedRounds NONE = new PairedRounds(null, null, null, null, null);

        public PairedRounds(List<BlockRecord> blocks, List<PairComparison> comparisons, List<RoundsStop> stops) {
            this(blocks, comparisons, stops, null, null);
        }

        public PairedRounds(List<BlockRecord> blocks, List<PairComparison> comparisons, List<RoundsStop> stops, List<LeadIn> leadIns) {
            this(blocks, comparisons, stops, leadIns, null);
        }
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
        return "completed".equals(header.status());
    }
}
