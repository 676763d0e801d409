package dev.loomflux.lab.result;

import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * results.json, rewritten atomically after every finished target x scenario, so Ctrl-C or a
 * crashing target never loses what was already measured. Schema: docs/results-schema.md.
 */
public final class ResultsFile {
    private final Path file;
    private final String runId;
    private final String startedAt = Instant.now().toString();
    private final Environment environment;
    private final ExperimentDescription experiment;
    private final List<Result> results = new ArrayList<>();
    private String status = "running";
    private String finishedAt;
    private RepeatSummary summary;
    private List<CapacitySearchResult> capacity;
    private List<CapacityMedian> capacitySummary;
    private SweepMap sweep;
    private List<CapacityLadder> capacityLadder;
    private final List<BlockRecord> blocks = new ArrayList<>();
    private final List<RoundsStop> stops = new ArrayList<>();
    private final List<LeadIn> leadIns = new ArrayList<>();
    private List<PairComparison> comparisons;
    private List<Survival> survival;

    public ResultsFile(Path dir, String runId, Environment environment, ExperimentDescription experiment) {
        this.file = dir.resolve("results.json");
        this.runId = runId;
        this.environment = environment;
        this.experiment = experiment;
        write();
    }

    public Path path() {
        return file;
    }

    /** The results so far, in the order they finished. */
    public synchronized List<Result> results() {
        return List.copyOf(results);
    }

    public synchronized void add(Result result) {
        results.add(result);
        write();
    }

    /** Written with the next update, as the other sections below. */
    public synchronized void summary(RepeatSummary summary) {
        this.summary = summary;
    }

    public synchronized void capacity(List<CapacitySearchResult> searches) {
        this.capacity = List.copyOf(searches);
    }

    public synchronized void capacitySummary(List<CapacityMedian> medians) {
        this.capacitySummary = List.copyOf(medians);
    }

    public synchronized void capacityLadder(List<CapacityLadder> ladders) {
        this.capacityLadder = List.copyOf(ladders);
    }

    /** One scenario's rounds, written at once with the results they make and, in a sequential run, where they stopped (else null). */
    public synchronized void addRounds(List<Result> perTarget, List<BlockRecord> measured, RoundsStop stop, LeadIn leadIn) {
        results.addAll(perTarget);
        blocks.addAll(measured);
        if (stop != null) {
            stops.add(stop);
        }
        if (leadIn != null) {
            leadIns.add(leadIn);
        }
        write();
    }

    public synchronized List<RoundsStop> stops() {
        return List.copyOf(stops);
    }

    public synchronized List<LeadIn> leadIns() {
        return List.copyOf(leadIns);
    }

    public synchronized List<BlockRecord> blocks() {
        return List.copyOf(blocks);
    }

    /** Written with the next update. */
    public synchronized void comparisons(List<PairComparison> pairs) {
        this.comparisons = List.copyOf(pairs);
    }

    /** Written with the next update; none where no target died. */
    public synchronized void survival(List<Survival> verdicts) {
        this.survival = verdicts.isEmpty() ? null : List.copyOf(verdicts);
    }

    public synchronized void sweep(SweepMap map) {
        this.sweep = map;
    }

    /** @param status completed, interrupted or failed */
    public synchronized void finish(String status) {
        this.status = status;
        this.finishedAt = Instant.now().toString();
        write();
    }

    public synchronized RunRecord snapshot() {
        return new RunRecord(new RunRecord.Header(RunRecord.SCHEMA, runId, status, startedAt, finishedAt), environment, experiment, results,
                new RunRecord.Summaries(summary, capacity, capacitySummary, sweep, capacityLadder),
                new RunRecord.PairedRounds(blocks.isEmpty() ? null : List.copyOf(blocks), comparisons, stops.isEmpty() ? null : List.copyOf(stops),
                leadIns.isEmpty() ? null : List.copyOf(leadIns), survival));
    }

    private void write() {
        Path tmp = file.resolveSibling("results.json.tmp");
        try {
            Json.MAPPER.writeValue(tmp.toFile(), snapshot());
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
