package dev.loomflux.lab.driver;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One target's turn in one round of interleaved measurement. Its requests are those sent between
 * {@code startMs} and {@code endMs}; every one of them is answered, failed or timed out before the
 * next block starts, so nothing sent in the block is lost and throughput x mean latency = users
 * (Little's law) holds for a closed model.
 *
 * @param round      from 0 (a lead-in round, if the plan has one, is round 0)
 * @param position   where in its round the block ran, from 0
 * @param responses  responses to the requests sent in the block
 * @param share      the responses by their share of time in flight inside the send window, and that time ({@link WindowShare})
 * @param reconnections responses to the block's requests that closed their connection ({@link Reconnections}); not errors
 * @param latency    every response to a request sent in the block, in nanoseconds
 * @param secondsRps responses per second by the second their request was sent; the last second may be shorter
 * @param intended   open model: the arrivals the schedule asked for over the send window; -1 for closed models
 * @param flows      a load of flows: each flow and its steps over the send window (the fields above count the steps'
 *                   requests together); empty for one request per iteration
 * @param agents     on JMeter's agents, each agent's part of the block, in the agents' order; empty on one driver
 */
public record Block(String target, int round, int position, long startMs, long endMs, long requests, long responses, WindowShare share, Errors errors,
                    long reconnections, Histogram latency, List<Double> secondsRps, long intended, List<FlowMeasurement> flows, List<AgentPart> agents) {
    /**
     * One agent's part of a block run on several: its requests sent in the block, their responses, the requests it kept in flight over
     * the block's send window (Little's law, each by its time inside the window), and how late its gate opened after the block's
     * scheduled start, on the lab's clock (within its clock offset's error: the offset it read, and half that reading's round trip).
     */
    public record AgentPart(String agent, long requests, long responses, double inFlight, double lateMs, double clockOffsetMs, double clockErrorMs) {
    }

    public Block {
        secondsRps = List.copyOf(secondsRps);
        flows = List.copyOf(flows);
        agents = List.copyOf(agents);
    }

    public Block(String target, int round, int position, long startMs, long endMs, long requests, long responses, WindowShare share, Errors errors,
                 long reconnections, Histogram latency, List<Double> secondsRps, long intended, List<FlowMeasurement> flows) {
        this(target, round, position, startMs, endMs, requests, responses, share, errors, reconnections, latency, secondsRps, intended, flows, List.of());
    }

    /** The same block with each agent's part of it. */
    public Block withAgents(List<AgentPart> parts) {
        return new Block(target, round, position, startMs, endMs, requests, responses, share, errors, reconnections, latency, secondsRps, intended, flows, parts);
    }

    /** A block of a load of one request per iteration: no flows. */
    public Block(String target, int round, int position, long startMs, long endMs, long requests, long responses, WindowShare share, Errors errors,
                 long reconnections, Histogram latency, List<Double> secondsRps, long intended) {
        this(target, round, position, startMs, endMs, requests, responses, share, errors, reconnections, latency, secondsRps, intended, List.of());
    }

    /** The send window in seconds. */
    public double seconds() {
        return Math.max(1, endMs - startMs) / 1000.0;
    }

    /** Responses (any status) per second of the send window, each by its share of time in flight inside it. */
    public double rps() {
        return share.rps(seconds());
    }

    /** The mean number of requests in flight over the send window: a closed model's busy users (Little's law). */
    public double inFlight() {
        return share.inFlight(seconds());
    }
}
