package dev.loomflux.lab.driver;

import io.hyperfoil.api.statistics.StatisticsSnapshot;
import java.util.Map;
import java.util.NavigableMap;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The responses a window holds when each counts by the share of its time in flight that fell inside
 * the window (a request in flight for 4 s, 1 s of it in the window, counts 0.25), and the time in
 * flight itself. Counted whole by the second they were sent, a window of a closed model holds as many
 * waves of requests as happened to start in it: 100 users over a 4.0 s stub measured 700 requests in
 * 30 s (23.3/s, Little's law 93.6 users) where 7.5 waves (25/s) ran through it. By share, every user's
 * time in the window counts once (docs/statistics.md).
 *
 * @param responses the responses' total share of the window
 * @param flightMs  the time requests spent in flight inside the window, summed over requests: over the
 *                  window's length, the mean number in flight (Little's law's L, exactly, where throughput
 *                  x the mean latency of the requests sent in the window misses or adds the stragglers at
 *                  its edges: 93.7-99.6 for 100 users at 4 s latencies spread over 0.4-9 s). A request that
 *                  timed out was in flight until its timeout: left out, 14 timeouts of 10 s over 733 requests
 *                  read 93.8 of those 100 users
 */
public record WindowShare(double responses, double flightMs) {
    /** Send times within a second are spread evenly over it; 20 points put the error under 0.1% of a second's share. */
    private static final int POINTS = 20;
    public static final WindowShare NONE = new WindowShare(0, 0);

    /** Responses per second of a window this long; 0 for an empty one. */
    public double rps(double seconds) {
        return seconds > 0 ? responses / seconds : 0;
    }

    /** The mean number of requests in flight over a window this long: a closed model's busy users (Little's law); 0 for an empty one. */
    public double inFlight(double seconds) {
        return seconds > 0 ? flightMs / 1000 / seconds : 0;
    }

    /** Two windows' responses and time in flight together. */
    public WindowShare plus(WindowShare other) {
        return new WindowShare(responses + other.responses, flightMs + other.flightMs);
    }

    /**
     * @param bySecond  Hyperfoil's samples keyed by the epoch ms at which their send second starts
     * @param sendEndMs no request was sent after this (the last second may be short); Long.MAX_VALUE if unknown
     * @param timeoutMs how long a request that timed out was in flight
     */
    static WindowShare of(NavigableMap<Long, StatisticsSnapshot> bySecond, long fromMs, long toMs, long sendEndMs, long timeoutMs) {
        double responses = 0;
        double flightMs = 0;
        for (Map.Entry<Long, StatisticsSnapshot> e : bySecond.headMap(toMs, false).entrySet()) {
            StatisticsSnapshot s = e.getValue();
            long start = e.getKey();
            double length = Math.max(1, Math.min(1000, (double) sendEndMs - start));
            flightMs += s.requestTimeouts * averageShare(start, length, timeoutMs, fromMs, toMs) * timeoutMs;
            long recorded = s.histogram.getTotalCount();
            if (recorded == 0 || s.responseCount == 0) {
                continue;
            }
            double share = 0;
            double flight = 0;
            for (HistogramIterationValue v : s.histogram.recordedValues()) {
                double latencyMs = s.histogram.medianEquivalentValue(v.getValueIteratedTo()) / 1e6;
                double shares = v.getCountAtValueIteratedTo() * averageShare(start, length, latencyMs, fromMs, toMs);
                share += shares;
                flight += shares * latencyMs;
            }
            // Responses Hyperfoil counted without a latency (none seen so far) are spread like those with one.
            responses += share * s.responseCount / recorded;
            flightMs += flight * s.responseCount / recorded;
        }
        return new WindowShare(responses, flightMs);
    }

    /** The mean share of [from, to) of a request sent at a time spread evenly over [start, start + length) and answered after latencyMs. */
    private static double averageShare(long start, double length, double latencyMs, long from, long to) {
        double sum = 0;
        for (int i = 0; i < POINTS; i++) {
            double sent = start + (i + 0.5) * length / POINTS;
            if (latencyMs <= 0) {
                sum += sent >= from && sent < to ? 1 : 0;
            } else {
                sum += Math.max(0, Math.min(sent + latencyMs, to) - Math.max(sent, from)) / latencyMs;
            }
        }
        return sum / POINTS;
    }
}
