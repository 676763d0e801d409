package dev.loomflux.lab.result;

import java.util.List;
import java.util.function.Function;

/**
 * A number of a results.json entry that runs are compared by: where it is in the entry, its unit,
 * which way is better, and the name summary.estimates and summary.verdicts give it. One definition
 * for the summary over repeats, the report's findings and ./lab compare.
 */
public enum Metric {
    THROUGHPUT("throughput", "Throughput", "throughput", "rps", true, "throughput_rps", r -> r.load().throughputRps()),
    MEAN("mean", "Mean latency", "mean latency", "ms", false, null, latency(Result.Latency::mean)),
    P50("p50", "Median latency", "median latency", "ms", false, "p50_ms", latency(Result.Latency::p50)),
    P90("p90", "p90 latency", "p90", "ms", false, null, latency(Result.Latency::p90)),
    P99("p99", "p99 latency", "p99", "ms", false, "p99_ms", latency(Result.Latency::p99)),
    MAX("max", "Max latency", "max latency", "ms", false, null, latency(Result.Latency::max)),
    ERRORS("errors", "Errors", "errors", "", false, null, r -> r.load().errors() == null ? null : (double) r.load().errors().total()),
    ERROR_PCT("error-pct", "Error rate", "error rate", "%", false, "error_pct",
            r -> r.load().errors() == null || r.load().requests() == null || r.load().requests() == 0 ? null : 100.0 * r.load().errors().total() / r.load().requests()),
    /** The target's CPU per response over the measured seconds: its efficiency, whatever its throughput. */
    CPU_PER_REQUEST("cpu-per-request", "CPU per request", "CPU per request", "ms", false, "cpu_ms_per_request", Metric::cpuMsPerRequest),
    RSS("rss", "Resident memory (peak)", "memory", "MB", false, "rss_mb", r -> peak(r, s -> s.target().rssMb())),
    THREADS("threads", "OS threads (peak)", "threads", "", false, "threads", r -> peak(r, s -> s.target().threads() == null ? null : s.target().threads().doubleValue())),
    /**
     * What the load added to the JVM's idle RSS, per 1,000 users it held open: an upper bound of what
     * a connection costs (heap pages the load's allocations touched count too; docs/sweep.md).
     */
    RSS_PER_USERS("rss-per-1000-users", "RSS growth per 1,000 users", "memory per user", "MB", false,
            "rss_mb_per_1000_users", Metric::rssPerThousandUsers),
    /** Of a capacity search (results.json capacity[]), not of a result: the highest rate that met the SLO. */
    CAPACITY("capacity", "Capacity", "capacity", "rps", true, null, r -> null);

    /** The metrics with a median and verdicts over repeats (results.json summary), in the report's order. */
    public static final List<Metric> SUMMARIZED = List.of(THROUGHPUT, P50, P99);
    /** The metrics of every sweep cell (docs/sweep.md): speed, then efficiency. */
    public static final List<Metric> SWEPT = List.of(THROUGHPUT, P50, P99, ERROR_PCT, CPU_PER_REQUEST, RSS, THREADS, RSS_PER_USERS);
    /** The metrics of one measurement (results[]); capacity belongs to a search. */
    public static final List<Metric> OF_RESULT = List.of(THROUGHPUT, MEAN, P50, P90, P99, MAX, ERRORS);

    private final String id;
    private final String label;
    private final String words;
    private final String unit;
    private final boolean higherIsBetter;
    private final String summaryName;
    private final Function<Result, Double> read;

    Metric(String id, String label, String words, String unit, boolean higherIsBetter, String summaryName, Function<Result, Double> read) {
        this.id = id;
        this.label = label;
        this.words = words;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
        this.summaryName = summaryName;
        this.read = read;
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

    /** The figure in a result, or null when it has none (a failed result, a latency without responses). */
    public Double read(Result r) {
        // A failed result's series runs up to its death, not over a measured window: no figure of it compares.
        return r.ok() ? read.apply(r) : null;
    }

    private static Double cpuMsPerRequest(Result r) {
        double cpu = 0;
        double responses = 0;
        for (Result.PerSecond s : r.telemetry().series() == null ? List.<Result.PerSecond>of() : r.telemetry().series()) {
            if (s.target().cpuPct() != null) {
                cpu += s.target().cpuPct() * 10; // % of one core over 1 s = 10 ms of CPU per percent
                responses += s.load().rps();
            }
        }
        return responses == 0 ? null : cpu / responses;
    }

    private static Double peak(Result r, Function<Result.PerSecond, Double> column) {
        return r.telemetry().series() == null ? null : r.telemetry().series().stream().map(column).filter(java.util.Objects::nonNull).max(Double::compare).orElse(null);
    }

    /**
     * Not peak RSS over the users: that is mostly the JVM's baseline divided by the users, which falls
     * as users rise whatever the model. Growth over the ready, idle JVM is what the connections (and the
     * load's garbage) cost (docs/sweep.md, "What each cell reports").
     */
    private static Double rssPerThousandUsers(Result r) {
        Double rss = peak(r, s -> s.target().rssMb());
        Double idle = r.telemetry().phases() == null ? null : r.telemetry().phases().stream().filter(p -> p.name().equals("idle") && p.target() != null && p.target().rssMb() != null)
                .map(p -> p.target().rssMb().max().doubleValue()).findFirst().orElse(null);
        int users = r.telemetry().series() == null ? 0 : r.telemetry().series().stream().mapToInt(s -> s.load().users()).max().orElse(0);
        return rss == null || idle == null || users == 0 ? null : Math.max(0, rss - idle) / users * 1000;
    }

    private static Function<Result, Double> latency(Function<Result.Latency, Double> figure) {
        return r -> r.load().latencyMs() == null ? null : figure.apply(r.load().latencyMs());
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
        for (Metric m : values()) {
            if (name.equals(m.summaryName)) {
                return m;
            }
        }
        return null;
    }
}
