package dev.loomflux.lab.compare;

import java.util.Map;
import java.util.function.Function;

/** A number compared between two runs, read from one results.json entry. */
enum Metric {
    THROUGHPUT("throughput", "rps", true, r -> number(r.get("throughput_rps"))),
    MEAN("mean", "ms", false, r -> latency(r, "mean")),
    P50("p50", "ms", false, r -> latency(r, "p50")),
    P90("p90", "ms", false, r -> latency(r, "p90")),
    P99("p99", "ms", false, r -> latency(r, "p99")),
    MAX("max", "ms", false, r -> latency(r, "max")),
    ERRORS("errors", "", false, r -> r.get("errors") instanceof Map ? number(((Map<?, ?>) r.get("errors")).get("total")) : null),
    /** Of a capacity search (results.json capacity[]), or the median of several (capacity_summary[]): the highest rate that met the SLO. */
    CAPACITY("capacity", "rps", true, r -> number(r.containsKey("median_rps") ? r.get("median_rps") : r.get("capacity_rps")));

    /** The metrics of one measurement (results[]); capacity belongs to a search. */
    static final java.util.List<Metric> OF_RESULT = java.util.List.of(THROUGHPUT, MEAN, P50, P90, P99, MAX, ERRORS);

    private final String id;
    private final String unit;
    private final boolean higherIsBetter;
    private final Function<Map<String, Object>, Double> read;

    Metric(String id, String unit, boolean higherIsBetter, Function<Map<String, Object>, Double> read) {
        this.id = id;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
        this.read = read;
    }

    String id() {
        return id;
    }

    String unit() {
        return unit;
    }

    boolean higherIsBetter() {
        return higherIsBetter;
    }

    Double read(Map<String, Object> result) {
        return read.apply(result);
    }

    static Metric byId(String id) {
        for (Metric m : values()) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        return null;
    }

    private static Double latency(Map<String, Object> r, String key) {
        Object lat = r.get("latency_ms");
        return lat instanceof Map ? number(((Map<?, ?>) lat).get(key)) : null;
    }

    private static Double number(Object o) {
        return o instanceof Number ? ((Number) o).doubleValue() : null;
    }
}
