package dev.loomflux.lab.driver;

import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one run measured.
 *
 * @param latency        the whole run, in nanoseconds, 2 significant digits (Hyperfoil's resolution);
 *                       the sum of {@code intervals}
 * @param series         one row per second, from 0 to the last second in which a request started
 * @param intervals      the same seconds as histograms with start/end timestamps (epoch ms), for a .hlog
 * @param requests       requests started
 * @param responses      responses received, any status, to requests sent in the window
 * @param share          the responses by their share of time in flight inside the window, and that time
 *                       ({@link WindowShare}): throughput and the mean in flight are these over {@code elapsed}
 * @param errors         failed requests by cause
 * @param reconnections  responses that closed their connection ({@code Connection: close}), after each of
 *                       which the driver opened a new one ({@link Reconnections}); not errors
 * @param bytesSent      request bytes on the wire, headers included
 * @param bytesReceived  response bytes on the wire, headers included
 * @param elapsed        from the start of the load until the last phase ended
 * @param behindSchedule rate profile: the driver could not keep the schedule (every session was busy,
 *                       or a full second started fewer than 95% of the scheduled arrivals); always
 *                       false for closed models
 * @param cacheHits      requests Hyperfoil answered from its own HTTP cache; 0 means every request
 *                       reached the target
 * @param agents         JMeter's agents, each with its part of the window; empty for one local driver
 * @param flows          a load of flows: each flow and its steps over the window (the fields above count the steps'
 *                       requests together); empty for one request per iteration
 */
public record Measurement(Histogram latency, List<Second> series, List<Histogram> intervals, long requests,
                          long responses, WindowShare share, Errors errors, long reconnections, long bytesSent, long bytesReceived, Duration elapsed,
                          boolean behindSchedule, long cacheHits, List<AgentShare> agents, List<FlowMeasurement> flows) {
    public Measurement {
        series = List.copyOf(series);
        intervals = List.copyOf(intervals);
        agents = List.copyOf(agents);
        flows = List.copyOf(flows);
    }

    /** The same measurement with the agents' parts of it. */
    public Measurement withAgents(List<AgentShare> parts) {
        return new Measurement(latency, series, intervals, requests, responses, share, errors, reconnections, bytesSent, bytesReceived, elapsed, behindSchedule,
                cacheHits, parts, flows);
    }

    /** Responses per second of the window, each by its share of time in flight inside it. */
    public double throughput() {
        return share.rps(elapsed.toMillis() / 1000.0);
    }

    /** The mean number of requests in flight over the window: a closed model's busy users (Little's law). */
    public double inFlight() {
        return share.inFlight(elapsed.toMillis() / 1000.0);
    }
}
