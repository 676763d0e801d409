package dev.loomflux.lab.result;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.loomflux.targets.TargetConfig;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One target x scenario x repeat (x capacity step) of results.json: the measured load, its files,
 * the target's telemetry and steady state, and what procedure and target it belongs to. A failed
 * one has only who, status and error. Field names: docs/results-schema.md.
 *
 * @param inFlight the mean number of requests in flight over the window (each by its time inside it): a
 *                 closed model's busy users, Little's law's L
 * @param cell     in a sweep, the value of every axis where this was measured (docs/sweep.md)
 */
public record Result(
        String target, String scenario, String status, String error,
        Double durationS, Long requests, Long responses, Double throughputRps, Double inFlight,
        Latency latencyMs, ErrorCounts errors, Bytes bytes, Boolean behindSchedule, Long cacheHits, List<PerSecond> series,
        String hlog, String hyperfoilYaml, String jfr, JvmFacts jvm, List<PhaseStats> phases, String seriesCsv,
        SteadyState steadyState, DriverCheck driver, LimitsReport limits, String telemetryError,
        Integer repeat, Integer step, Integer offeredRps, Boolean sloMet, List<String> sloMisses,
        Long startupMs, String targetCpus, TargetConfig targetConfig, Map<String, Integer> cell) {

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

    public record ErrorCounts(long total, long connect, long timeout, @JsonProperty("4xx") long status4xx, @JsonProperty("5xx") long status5xx,
                              long other) {
    }

    public record Bytes(long sent, long received) {
    }

    /**
     * One second of the measured window: the load's figures, the open model's schedule (intended,
     * sent), the target's resources and JIT, the machine's canary, the support processes' CPU and,
     * under limits, the cgroup's accounting.
     */
    public record PerSecond(int t, double rps, Double p50, Double p99, long errors, int users, Long intended, Long sent,
                            Double cpuPct, Double rssMb, Integer threads, Long fds, Long jitCompiles, Double jitMs, Double jitCpuMs,
                            Double canaryUs, Double stubCpuPct, Double dbCpuPct, Double cgroupCpuPct, Double throttledPct, Double cgroupMemoryMb) {
        public PerSecond withTarget(Double cpuPct, Double rssMb, Integer threads, Long fds, Long jitCompiles, Double jitMs, Double jitCpuMs,
                                    Double canaryUs, Double stubCpuPct, Double dbCpuPct) {
            return new PerSecond(t, rps, p50, p99, errors, users, intended, sent, cpuPct, rssMb, threads, fds, jitCompiles, jitMs, jitCpuMs,
                    canaryUs, stubCpuPct, dbCpuPct, cgroupCpuPct, throttledPct, cgroupMemoryMb);
        }

        public PerSecond withGroup(Double cgroupCpuPct, Double throttledPct, Double cgroupMemoryMb) {
            return new PerSecond(t, rps, p50, p99, errors, users, intended, sent, cpuPct, rssMb, threads, fds, jitCompiles, jitMs, jitCpuMs,
                    canaryUs, stubCpuPct, dbCpuPct, cgroupCpuPct, throttledPct, cgroupMemoryMb);
        }
    }

    public static Result failed(String target, String scenario, String error) {
        return failed(target, scenario, error, null);
    }

    /**
     * @param untilDeath for a target that died under load: per second from its first request, the load and the target's
     *                   resources up to its death (t counts from that request, not from a measured window); null otherwise
     */
    public static Result failed(String target, String scenario, String error, List<PerSecond> untilDeath) {
        return new Result(target, scenario, "failed", error, null, null, null, null, null, null, null, null, null, null,
                untilDeath == null || untilDeath.isEmpty() ? null : List.copyOf(untilDeath), null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** Stamped with the repeat it belongs to and the target process that served it. */
    public Result withVisit(int repeat, Long startupMs, String targetCpus, TargetConfig targetConfig) {
        return new Result(target, scenario, status, error, durationS, requests, responses, throughputRps, inFlight, latencyMs, errors, bytes, behindSchedule,
                cacheHits, series, hlog, hyperfoilYaml, jfr, jvm, phases, seriesCsv, steadyState, driver, limits, telemetryError,
                repeat, step, offeredRps, sloMet, sloMisses, startupMs, targetCpus, targetConfig, cell);
    }

    /** As measured in this cell of a sweep. */
    public Result withCell(Map<String, Integer> cell) {
        return new Result(target, scenario, status, error, durationS, requests, responses, throughputRps, inFlight, latencyMs, errors, bytes, behindSchedule,
                cacheHits, series, hlog, hyperfoilYaml, jfr, jvm, phases, seriesCsv, steadyState, driver, limits, telemetryError,
                repeat, step, offeredRps, sloMet, sloMisses, startupMs, targetCpus, targetConfig, Collections.unmodifiableMap(new LinkedHashMap<>(cell)));
    }

    /** As step {@code step} of a capacity search: the rate it offered and why it missed the SLO (empty: met). */
    public Result withStep(int step, int offeredRps, List<String> sloMisses) {
        return new Result(target, scenario, status, error, durationS, requests, responses, throughputRps, inFlight, latencyMs, errors, bytes, behindSchedule,
                cacheHits, series, hlog, hyperfoilYaml, jfr, jvm, phases, seriesCsv, steadyState, driver, limits, telemetryError,
                repeat, step, offeredRps, sloMisses.isEmpty(), List.copyOf(sloMisses), startupMs, targetCpus, targetConfig, cell);
    }

    public boolean ok() {
        return OK.equals(status);
    }

    /** Results from before the steady-state check have none and count as steady, as they did. */
    public boolean steady() {
        return steadyState == null || steadyState.steady();
    }

    /** "users=50 delay=20" in a sweep, else "". */
    public String cellLabel() {
        return cell == null ? "" : String.join(" ", cell.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    public int repeatOrFirst() {
        return repeat == null ? 1 : repeat;
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
