package dev.loomflux.lab.driver;

/**
 * A load agent's CPU over a span of the lab's clock.
 *
 * @param cpus    the agent JVM's available processors
 * @param meanPct CPU over the span, 100 = one core busy
 * @param maxPct  the busiest interval between two reports in the span
 */
public record AgentCpuUse(int cpus, double meanPct, double maxPct) {
}
