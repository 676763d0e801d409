package dev.loomflux.lab.result;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * A number of a results.json entry that runs are compared by: where it is in the entry, its unit,
 * which way is better, and the name summary.estimates and summary.verdicts give it. One definition
 * for the summary over repeats, the report's findings and ./lab compare.
 */
public enum Metric {
    THROUGHPUT("throughput", "Throughput", "throughput", "rps", true, "throughput_rps", "throughput_rps"),
    MEAN("mean", "Mean latency", "mean latency", "ms", false, null, "latency_ms", "mean"),
    P50("p50", "Median latency", "median latency", "ms", false, "p50_ms", "latency_ms", "p50"),
    P90("p90", "p90 latency", "p90", "ms", false, null, "latency_ms", "p90"),
    P99("p99", "p99 latency", "p99", "ms", false, "p99_ms", "latency_ms", "p99"),
    MAX("max", "Max latency", "max latency", "ms", false, null, "latency_ms", "max"),
    ERRORS("errors", "Errors", "errors", "", false, null, "errors", "total"),
    /** Of a capacity search (results.json capacity[]): the highest rate that met the SLO. */
    CAPACITY("capacity", "Capacity", "capacity", "rps", true, null, "capacity_rps");

    /** The metrics with a median and verdicts over repeats (results.json summary), in the report's order. */
    public static final List<Metric> SUMMARIZED = List.of(THROUGHPUT, P50, P99);
    /** The metrics of one measurement (results[]); capacity belongs to a search. */
    public static final List<Metric> OF_RESULT = List.of(THROUGHPUT, MEAN, P50, P90, P99, MAX, ERRORS);

    private final String id;
    private final String label;
    private final String words;
    private final String unit;
    private final boolean higherIsBetter;
    private final String summaryName;
    private final String[] path;

    Metric(String id, String label, String words, String unit, boolean higherIsBetter, String summaryName, String... path) {
        this.id = id;
        this.label = label;
        this.words = words;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
        this.summaryName = summaryName;
        this.path = path;
    }

    /** As ./lab compare --fail-on names it. */
    public String id() {
        return id;
    }

    /** As a table heading: "Median latency". */
    public String label() {
        return label;
    }

    /** Inside a sentence: "median latency", "p99". */
    public String words() {
        return words;
    }

    public String unit() {
        return unit;
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /** Its name in summary.estimates and summary.verdicts ("p99_ms"), or null when it is not summarized. */
    public String summaryName() {
        return summaryName;
    }

    /** The figure in a results.json entry read as maps, or null when absent. */
    public Double read(Map<String, Object> entry) {
        Object o = entry;
        for (String key : path) {
            o = o instanceof Map<?, ?> m ? m.get(key) : null;
        }
        return o instanceof Number n ? n.doubleValue() : null;
    }

    /** The figure in a results.json entry read as a tree, or NaN when absent. */
    public double read(JsonNode entry) {
        JsonNode n = entry;
        for (String key : path) {
            n = n.path(key);
        }
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    public static Metric byId(String id) {
        for (Metric m : values()) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        return null;
    }

    /** The metric a summary entry names, or null for a name this version does not know. */
    public static Metric bySummaryName(String name) {
        for (Metric m : SUMMARIZED) {
            if (m.summaryName.equals(name)) {
                return m;
            }
        }
        return null;
    }
}
