package dev.loomflux.lab.result;

import java.util.List;

/**
 * A result's "driver": the load driver's own CPU while it measured, and whether it could have been the bottleneck;
 * with JMeter's agents, each agent's part of the window (null without agents).
 */
public record DriverCheck(int cpus, double cpuPctMean, double cpuPctMax, boolean saturated, boolean trustworthy, List<Agent> agents) {
    /**
     * One agent's part, counted as the whole window is (its requests add up to the result's).
     *
     * @param clockOffsetMs the agent's clock minus the lab's, read before its load (null: no reading came back)
     * @param clockErrorMs  half the reading's round trip: how far off the offset may be
     * @param p50Ms         the median latency of its responses in the window (null without responses)
     * @param p99Ms         their p99: an agent on an overloaded host reads slower than the others
     * @param cpus          the agent JVM's available processors (null: it reported no CPU)
     * @param cpuPctMean    the agent JVM's CPU over the window, 100 = one core, as it reported it
     * @param saturated     whether that was at least {@code threshold} of its processors: it may have held the load back
     * @param hlog          its latencies second by second, an HdrHistogram interval log in the run's folder
     */
    public record Agent(String agent, long requests, long responses, double throughputRps, double inFlight, Double clockOffsetMs, Double clockErrorMs,
                        Double p50Ms, Double p99Ms, Integer cpus, Double cpuPctMean, Double cpuPctMax, Boolean saturated, String hlog) {
    }

    /** With the agents' parts: an agent that saturated its CPU makes the driver saturated, as the lab's own CPU would. */
    public DriverCheck withAgents(List<Agent> parts) {
        List<Agent> agents = parts == null || parts.isEmpty() ? null : List.copyOf(parts);
        boolean anySaturated = agents != null && agents.stream().anyMatch(a -> Boolean.TRUE.equals(a.saturated()));
        return new DriverCheck(cpus, cpuPctMean, cpuPctMax, saturated || anySaturated, trustworthy && !anySaturated, agents);
    }
}
