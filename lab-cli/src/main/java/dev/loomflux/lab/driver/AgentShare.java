package dev.loomflux.lab.driver;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One JMeter agent's part of a measured window, counted as the whole window is (the same seconds, each
 * response by its share of time in flight), so the agents' requests add up to the window's.
 *
 * @param agent         HOST:PORT, as the controller reached it
 * @param clockOffsetMs the agent's clock minus the lab's, read before its load; NaN when it sent no reading
 * @param clockErrorMs  how far off that offset may be: half the reading's round trip
 * @param p50Ms         the median latency of its responses in the window; NaN without responses
 * @param p99Ms         their p99: an agent whose host is overloaded reads slower than the others
 * @param cpu           the agent JVM's CPU over the measured window, as it reported it; null when it reported none
 * @param intervals     its latencies second by second over the window, as the load's own intervals are
 */
public record AgentShare(String agent, long requests, long responses, double throughputRps, double inFlight, double clockOffsetMs,
                         double clockErrorMs, double p50Ms, double p99Ms, AgentCpuUse cpu, List<Histogram> intervals) {
    public AgentShare {
        intervals = List.copyOf(intervals);
    }
}
