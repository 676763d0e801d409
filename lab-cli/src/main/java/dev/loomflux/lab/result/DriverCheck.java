package dev.loomflux.lab.result;

import java.util.List;

/**
 * A result's "driver": the load driver's own CPU while it measured, and whether it could have been the bottleneck;
 * with JMeter's agents, each agent's part of the window (schema 10; null without agents).
 */
public record DriverCheck(int cpus, double cpuPctMean, double cpuPctMax, boolean saturated, boolean trustworthy, List<Agent> agents) {
    /**
     * One agent's part, counted as the whole window is (its requests add up to the result's).
     *
     * @param clockOffsetMs the agent's clock minus the lab's, read before its load (null: no reading came back)
     * @param clockErrorMs  half the reading's round trip: how far off the offset may be
     */
    public record Agent(String agent, long requests, long responses, double throughputRps, double inFlight, Double clockOffsetMs, Double clockErrorMs) {
    }

    public DriverCheck withAgents(List<Agent> parts) {
        return new DriverCheck(cpus, cpuPctMean, cpuPctMax, saturated, trustworthy, parts == null || parts.isEmpty() ? null : List.copyOf(parts));
    }
}
