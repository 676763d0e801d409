package dev.loomflux.lab.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.loomflux.targets.TargetConfig;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One target x scenario x set or repeat (x capacity step, x sweep cell) of results.json: who it is, how it
 * ended, the measured load, the target's telemetry, the files written beside it, what the measurement
 * was checked against, the SLO of a capacity step and the JVM that served it. Each part is a record of
 * its own, written flat into results.json (field names: docs/results-schema.md); a failed result has
 * only its key and outcome, its other parts empty.
 */
public record Result(@JsonUnwrapped Key key, @JsonUnwrapped Status outcome, @JsonUnwrapped WindowLoad load, @JsonUnwrapped Telemetry telemetry,
                     @JsonUnwrapped Files files, @JsonUnwrapped Checks checks, @JsonUnwrapped SloCheck slo, @JsonUnwrapped TargetJvm visit) {

    /** Read back from results.json, an absent part comes as null or as a record of nulls: always the latter here. */
    public Result {
        load = load == null ? WindowLoad.NONE : load;
        telemetry = telemetry == null ? Telemetry.NONE : telemetry;
        files = files == null ? Files.NONE : files;
        checks = checks == null ? Checks.NONE : checks;
        slo = slo == null ? SloCheck.NONE : slo;
        visit = visit == null ? TargetJvm.NONE : visit;
    }

    /**
     * @param set    the paired design's set of JVMs; null in the sequential design (and before it is stamped)
     * @param repeat the sequential design's repeat, a capacity search's search; null in the paired design
     * @param step   the capacity search's step; null elsewhere
     * @param cell   in a sweep, the value of every axis where this was measured (docs/sweep.md)
     */
    public record Key(String target, String scenario, Integer set, Integer repeat, Integer step, Map<String, Integer> cell) {
    }

    /** "ok", or "failed" with why. */
    public record Status(String status, String error) {
        public static final Status OK = new Status(Result.OK, null);

        public static Status failed(String error) {
            return new Status("failed", error);
        }
    }

    /**
     * The measured window's load.
     *
     * @param inFlight the mean number of requests in flight over the window (each by its time inside it): a
     *                 closed model's busy users, Little's law's L
     * @param behindSchedule open model only: whether arrivals waited for a free user
     * @param reconnections  responses that closed their connection ({@code Connection: close}), after each of which the
     *                       driver opened a new one: not errors, but a cost of the target's; null in results from before it was counted
     * @param flows          a load of flows: each flow over the window, with its steps (the fields above count the steps'
     *                       requests together); null for one request per iteration
     * @param dataRows       a flow on a built-in target's items: the rows of its copy of table item at its reset and after the
     *                       load; null elsewhere
     */
    public record WindowLoad(Double durationS, Long requests, Long responses, Double throughputRps, Double inFlight, Latency latencyMs,
                             ErrorCounts errors, Bytes bytes, Boolean behindSchedule, Long cacheHits, Long reconnections, List<FlowResult> flows,
                             DataRows dataRows) {
        static final WindowLoad NONE = new WindowLoad(null, null, null, null, null, null, null, null, null, null, null, null, null);

        public WindowLoad {
            flows = flows == null ? null : List.copyOf(flows);
        }

        /** Of a load of one request per iteration. */
        public WindowLoad(Double durationS, Long requests, Long responses, Double throughputRps, Double inFlight, Latency latencyMs,
                          ErrorCounts errors, Bytes bytes, Boolean behindSchedule, Long cacheHits, Long reconnections) {
            this(durationS, requests, responses, throughputRps, inFlight, latencyMs, errors, bytes, behindSchedule, cacheHits, reconnections, null, null);
        }
    }

    /**
     * The rows of a target's own copy of table item (docs/results-schema.md): how many it held when the lab reset it before the
     * load, and after the load. What the load left there: the creates no delete followed.
     */
    public record DataRows(long atReset, long after) {
        public long growth() {
            return after - atReset;
        }
    }

    /**
     * What the target's process went through while measured, beside the load's own figures.
     *
     * @param series  per second of the window (per block in the paired design); for a target that died under
     *                load, per second from its first request up to its death
     * @param profile where its CPU went over the window, from its JFR recording's samples; null when none could be read
     */
    public record Telemetry(List<PerSecond> series, JvmFacts jvm, CpuProfile profile, List<PhaseStats> phases, String telemetryError, List<ThreadUse> threads) {
        static final Telemetry NONE = new Telemetry(null, null, null, null, null, null);

        public Telemetry(List<PerSecond> series, JvmFacts jvm, CpuProfile profile, List<PhaseStats> phases, String telemetryError) {
            this(series, jvm, profile, phases, telemetryError, null);
        }
    }

    /**
     * The files a measurement wrote next to results.json, by name.
     *
     * @param plan the load driver's own plan file (.hyperfoil.yaml, .jmx)
     */
    public record Files(String hlog, String plan, String seriesCsv, String jfr) {
        static final Files NONE = new Files(null, null, null, null);
    }

    /** What the measurement was checked against: the steady-state rule, the driver's own headroom, the cgroup's limits. */
    public record Checks(SteadyState steadyState, DriverCheck driver, LimitsReport limits) {
        static final Checks NONE = new Checks(null, null, null);
    }

    /** A capacity step's rate and whether it met the SLO (sloMisses empty: met). */
    public record SloCheck(Integer offeredRps, Boolean sloMet, List<String> sloMisses) {
        static final SloCheck NONE = new SloCheck(null, null, null);
    }

    /** The target JVM that served it. */
    public record TargetJvm(Long startupMs, String targetCpus, TargetConfig targetConfig) {
        static final TargetJvm NONE = new TargetJvm(null, null, null);
    }

    public static final String OK = "ok";

    /** Latency of the measured window in ms; null figures when no response came back. */
    public record Latency(Double mean, Double p50, Double p90, Double p95, Double p99, Double p999, Double max) {
        public static Latency of(Histogram h) {
            if (h.getTotalCount() == 0) {
                return new Latency(null, null, null, null, null, null, null);
            }
            return new Latency(ms(h.getMean()), ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)), ms(h.getValueAtPercentile(95)),
                    ms(h.getValueAtPercentile(99)), ms(h.getValueAtPercentile(99.9)), ms(h.getMaxValue()));
        }

        /** By the name an SLO uses: p50, p90, p95, p99 or p999. */
        public Double at(String percentile) {
            return switch (percentile) {
                case "p50" -> p50;
                case "p90" -> p90;
                case "p95" -> p95;
                case "p99" -> p99;
                case "p999" -> p999;
                default -> throw new IllegalArgumentException("no percentile " + percentile);
            };
        }
    }

    /**
     * Failed requests by cause, each counted once. A load of flows adds its steps' own failures, which are responses: a status the
     * step does not expect ({@code unexpected}) and an expected one without the value the step extracts ({@code missing}); the total
     * counts them too. Both are null for a load of one request per iteration.
     */
    public record ErrorCounts(long total, long connect, long timeout, @JsonProperty("4xx") long status4xx, @JsonProperty("5xx") long status5xx,
                              long other, Long unexpected, Long missing) {
        /** Of a load of one request per iteration. */
        public ErrorCounts(long total, long connect, long timeout, long status4xx, long status5xx, long other) {
            this(total, connect, timeout, status4xx, status5xx, other, null, null);
        }
    }

    public record Bytes(long sent, long received) {
    }

    /**
     * One second of the measured window: the load's figures, the target's resources and JIT, what ran beside it and, under limits,
     * the cgroup's. Its parts are a Java grouping (results.json has their fields flat); one not measured is a record of nulls.
     */
    public record PerSecond(int t, @JsonUnwrapped SecondLoad load, @JsonUnwrapped SecondTarget target, @JsonUnwrapped SecondJit jit,
                            @JsonUnwrapped SecondBeside beside, @JsonUnwrapped SecondCgroup cgroup) {
        public PerSecond {
            target = target == null ? SecondTarget.NONE : target;
            jit = jit == null ? SecondJit.NONE : jit;
            beside = beside == null ? SecondBeside.NONE : beside;
            cgroup = cgroup == null ? SecondCgroup.NONE : cgroup;
        }

        /** The same second with the target's figures and what ran beside it. */
        public PerSecond withTarget(SecondTarget target, SecondJit jit, SecondBeside beside) {
            return new PerSecond(t, load, target, jit, beside, cgroup);
        }

        public PerSecond withGroup(SecondCgroup cgroup) {
            return new PerSecond(t, load, target, jit, beside, cgroup);
        }

        /** A second of the load, by its figures' names; the target's figures and the cgroup's are added to it. */
        public static final class Builder {
            private final int t;
            private double rps;
            private Double p50;
            private Double p99;
            private long errors;
            private int users;
            private Long intended;
            private Long sent;

            public Builder(int t) {
                this.t = t;
            }

            public Builder rps(double rps) {
                this.rps = rps;
                return this;
            }

            public Builder p50(Double p50) {
                this.p50 = p50;
                return this;
            }

            public Builder p99(Double p99) {
                this.p99 = p99;
                return this;
            }

            public Builder errors(long errors) {
                this.errors = errors;
                return this;
            }

            public Builder users(int users) {
                this.users = users;
                return this;
            }

            public Builder intended(Long intended) {
                this.intended = intended;
                return this;
            }

            public Builder sent(Long sent) {
                this.sent = sent;
                return this;
            }

            public PerSecond build() {
                return new PerSecond(t, new SecondLoad(rps, p50, p99, errors, users, intended, sent), null, null, null, null);
            }
        }
    }

    /** @param intended open model only: the arrivals the schedule asked for in the second; {@code sent} those sent */
    public record SecondLoad(double rps, Double p50, Double p99, long errors, int users, Long intended, Long sent) {
    }

    /** The target process's CPU (% of one core), resident memory, threads and open files in a second. */
    public record SecondTarget(Double cpuPct, Double rssMb, Integer threads, Long fds) {
        static final SecondTarget NONE = new SecondTarget(null, null, null, null);
    }

    /** The JIT compilations the target's JVM finished in a second, the time they took, and its compiler threads' CPU. */
    public record SecondJit(Long jitCompiles, Double jitMs, Double jitCpuMs) {
        public static final SecondJit NONE = new SecondJit(null, null, null);
    }

    /** Beside the target: the machine's CPU canary on its CPUs (µs) and the support processes' CPU (%). */
    public record SecondBeside(Double canaryUs, Double stubCpuPct, Double dbCpuPct) {
        static final SecondBeside NONE = new SecondBeside(null, null, null);
    }

    /** Under limits, the cgroup's CPU, the share of its periods throttled, and its memory. */
    public record SecondCgroup(Double cgroupCpuPct, Double throttledPct, Double cgroupMemoryMb) {
        static final SecondCgroup NONE = new SecondCgroup(null, null, null);
    }

    public static Result failed(String target, String scenario, String error) {
        return failed(target, scenario, error, null);
    }

    /**
     * @param untilDeath for a target that died under load: per second from its first request, the load and the target's
     *                   resources up to its death (t counts from that request, not from a measured window); null otherwise
     */
    public static Result failed(String target, String scenario, String error, List<PerSecond> untilDeath) {
        return new Result(new Key(target, scenario, null, null, null, null), Status.failed(error), null,
                untilDeath == null || untilDeath.isEmpty() ? null : new Telemetry(List.copyOf(untilDeath), null, null, null, null), null, null, null, null);
    }

    /** Stamped with the paired design's set of JVMs it measured, and the target process that served it (null: none known). */
    public Result withSet(int set, TargetJvm jvm) {
        return new Result(new Key(key.target(), key.scenario(), set, key.repeat(), key.step(), key.cell()), outcome, load, telemetry, files, checks, slo,
                jvm == null ? TargetJvm.NONE : jvm);
    }

    /** Stamped with the sequential design's repeat it measured (a capacity search's search), and the target process that served it (null: none known). */
    public Result withRepeat(int repeat, TargetJvm jvm) {
        return new Result(new Key(key.target(), key.scenario(), key.set(), repeat, key.step(), key.cell()), outcome, load, telemetry, files, checks, slo,
                jvm == null ? TargetJvm.NONE : jvm);
    }

    /** With where its target's CPU went over the window, or none (null). */
    public Result withProfile(CpuProfile profile) {
        Telemetry t = telemetry;
        return new Result(key, outcome, load, new Telemetry(t.series(), t.jvm(), profile, t.phases(), t.telemetryError(), t.threads()), files, checks, slo, visit);
    }

    /** With its JVM's threads by role over the measured blocks. */
    public Result withThreads(List<ThreadUse> threads) {
        Telemetry t = telemetry;
        return new Result(key, outcome, load, new Telemetry(t.series(), t.jvm(), t.profile(), t.phases(), t.telemetryError(), threads), files, checks, slo, visit);
    }

    /** With the rows its load left in the target's copy of table item. */
    public Result withDataRows(DataRows rows) {
        WindowLoad l = load;
        return new Result(key, outcome, new WindowLoad(l.durationS(), l.requests(), l.responses(), l.throughputRps(), l.inFlight(), l.latencyMs(),
                l.errors(), l.bytes(), l.behindSchedule(), l.cacheHits(), l.reconnections(), l.flows(), rows), telemetry, files, checks, slo, visit);
    }

    /**
     * Its figures of one part of its scenario, as a result of their own that {@link Metric} reads (throughput, latency, errors): a
     * flow's whole iterations, or a step's requests; null when it has no such part. The whole scenario is the result itself.
     */
    public Result part(ScenarioPart part) {
        if (part.isWhole() || load.flows() == null) {
            return part.isWhole() ? this : null;
        }
        FlowResult f = load.flows().stream().filter(x -> x.flow().equals(part.flow())).findFirst().orElse(null);
        if (f == null) {
            return null;
        }
        WindowLoad l;
        if (part.step() == null) {
            l = new WindowLoad(load.durationS(), f.completed() + f.failed(), f.completed(), f.throughputRps(), f.inFlight(), f.latencyMs(),
                    null, null, null, null, null);
        } else {
            StepResult s = f.steps().stream().filter(x -> x.step().equals(part.step())).findFirst().orElse(null);
            if (s == null) {
                return null;
            }
            l = new WindowLoad(load.durationS(), s.requests(), s.responses(), s.throughputRps(), null, s.latencyMs(), s.errors(), null, null, null, null);
        }
        return new Result(key, outcome, l, telemetry, files, checks, slo, visit);
    }

    /** As measured in this cell of a sweep. */
    public Result withCell(Map<String, Integer> cell) {
        return new Result(new Key(key.target(), key.scenario(), key.set(), key.repeat(), key.step(), Collections.unmodifiableMap(new LinkedHashMap<>(cell))),
                outcome, load, telemetry, files, checks, slo, visit);
    }

    /** As step {@code step} of a capacity search: the rate it offered and why it missed the SLO (empty: met). */
    public Result withStep(int step, int offeredRps, List<String> sloMisses) {
        return new Result(new Key(key.target(), key.scenario(), key.set(), key.repeat(), step, key.cell()), outcome, load, telemetry, files, checks,
                new SloCheck(offeredRps, sloMisses.isEmpty(), List.copyOf(sloMisses)), visit);
    }

    public String target() {
        return key.target();
    }

    public String scenario() {
        return key.scenario();
    }

    public boolean ok() {
        return OK.equals(outcome.status());
    }

    /** Results from before the steady-state check have none and count as steady, as they did. */
    public boolean steady() {
        return checks.steadyState() == null || checks.steadyState().steady();
    }

    /** "users=50 delay=20" in a sweep, else "". */
    public String cellLabel() {
        return key.cell() == null ? "" : String.join(" ", key.cell().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    /** Which of its target's JVMs this was: its set in the paired design, its repeat in the sequential one; 1 when neither is recorded. */
    public int jvm() {
        return key.set() != null ? key.set() : key.repeat() != null ? key.repeat() : 1;
    }

    /** "set 2" or "repeat 2": {@link #jvm} in its design's word. */
    public String jvmLabel() {
        return (key.set() != null ? "set " : "repeat ") + jvm();
    }

    /** Rounded, or null for a figure that does not exist (NaN: a second without responses has no percentiles). */
    public static Double finite(double v) {
        return Double.isFinite(v) ? round(v) : null;
    }

    public static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    private static double ms(double nanos) {
        return round(nanos / 1_000_000.0);
    }
}
