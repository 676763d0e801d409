package dev.loomflux.lab.result;

import com.fasterxml.jackson.annotation.JsonAlias;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One block of interleaved rounds in results.json's {@code blocks}: one target's turn in one round
 * (docs/results-schema.md). Latency figures in ms; the target's CPU, memory and GC over the block.
 *
 * @param cell            a sweep's cell ({@code {"users": 50}}); null outside a sweep
 * @param set             the set of JVMs (1.. --sets) the block belongs to
 * @param round           from 1; lead-in rounds are not recorded
 * @param position        where in its round the block ran, from 0
 * @param users           a closed model's users; null for an open model
 * @param thinkMs         a closed model's mean pause between a response and the user's next request; null without think time
 * @param seconds         the send window; every request sent in it was answered, failed or timed out
 * @param rps             responses per second of the send window
 * @param inFlight        the mean number of requests in flight over the block, each by its time inside it: a closed
 *                        model's busy users (Little's law's L); schema 11 and before called it little_users
 * @param cpuMsPerRequest the target's CPU time (user + system) from the block's start to its last response, per response
 * @param rssMb           the target's resident memory at the block's end
 * @param gcMs            the target's collector time over the block (hsperfdata), null where it publishes none
 * @param canaryUs        the CPU canary's median time over the block on the target's CPUs (µs; higher is a slower machine), null without one
 * @param secondsRps      responses per second by the second their request was sent
 * @param intended        open model: the arrivals the schedule asked for in the send window; absent for a closed model
 * @param reconnections   responses to the block's requests that closed their connection ({@code Connection: close}); not errors
 */
public record BlockRecord(String scenario, Map<String, Integer> cell, int set, int round, int position, String target, Integer users, Double thinkMs, double seconds, long requests, long responses, long errors,
                          double rps, Double p50, Double p99, Double meanMs, @JsonAlias("little_users") Double inFlight, Double cpuMsPerRequest, Double rssMb, Double gcMs,
                          Double canaryUs, List<Double> secondsRps, Long intended, Long reconnections) {
    public BlockRecord {
        cell = cell == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(cell));
        secondsRps = secondsRps == null ? List.of() : List.copyOf(secondsRps);
    }

    /** The scenario and, in a sweep, the cell: what the blocks of one comparison share. */
    public String where() {
        return where(scenario, cell);
    }

    /** "json", or in a sweep "json users=50". */
    public static String where(String scenario, Map<String, Integer> cell) {
        if (cell == null || cell.isEmpty()) {
            return scenario;
        }
        StringBuilder sb = new StringBuilder(scenario);
        cell.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }

    /** An open model's block that sent fewer than 95% of its scheduled arrivals: its latencies miss the ones it could not send. */
    public boolean behindSchedule() {
        return intended != null && intended > 0 && requests < 0.95 * intended;
    }

    /**
     * Users in a request or in a pause (Little's law over the whole cycle: throughput x (latency +
     * think)); without think time, the busy users.
     */
    public Double cyclingUsers() {
        return inFlight == null || thinkMs == null ? inFlight : inFlight + rps * thinkMs / 1000;
    }

    /**
     * How far a closed model's throughput may be off for counting whole requests, as a share of it. A block's
     * users start together and cycle in step, so the window's end cuts every user's last request at the same
     * point, and {@link dev.loomflux.lab.driver.WindowShare}, which knows send times only to the second,
     * counts it as if sent anywhere in its second: up to half a request, plus half the share of a second a
     * cycle lasts, per user, the same way in every round (docs/statistics.md, "Counting whole requests").
     * 0 for an open model, whose arrivals keep their own schedule.
     */
    public double rpsResolution() {
        if (users == null || requests <= 0) {
            return 0;
        }
        double cycleS = ((meanMs == null ? 0 : meanMs) + (thinkMs == null ? 0 : thinkMs)) / 1000;
        return users * (0.5 + Math.min(1, cycleS) / 2) / requests;
    }

    /** The block's figure of a metric the rounds compare, or null when it has none. */
    public Double figure(Metric m) {
        return switch (m) {
            case THROUGHPUT -> rps;
            case P50 -> p50;
            case P99 -> p99;
            case CPU_PER_REQUEST -> cpuMsPerRequest;
            default -> throw new IllegalArgumentException("rounds do not compare " + m.id());
        };
    }
}
