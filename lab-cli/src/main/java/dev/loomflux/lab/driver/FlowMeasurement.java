package dev.loomflux.lab.driver;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one flow measured over the window: its whole iterations and each of its steps. An iteration's latency
 * runs from its first step's send to its last step's response (the pauses between its steps included, the
 * pause after it not), and only iterations that went through every step have one.
 *
 * @param completed  iterations that went through every step
 * @param failed     iterations a step ended: the sum of the steps' failures
 * @param throughput completed iterations per second of the window, each by its share of time in flight
 *                   inside it ({@link WindowShare})
 * @param inFlight   the mean number of iterations under way over the window (Little's law: throughput x mean
 *                   latency, and a closed model's users when nothing fails and nobody pauses between iterations)
 * @param latency    the completed iterations, in nanoseconds
 * @param intervals  the same iterations per second of the window, with start/end timestamps (epoch ms), for a .hlog; empty
 *                   when the driver keeps none (a .hlog then holds {@code latency} as one interval)
 */
public record FlowMeasurement(String flow, long completed, long failed, double throughput, double inFlight, Histogram latency,
                              List<StepMeasurement> steps, List<Histogram> intervals) {
    public FlowMeasurement {
        steps = List.copyOf(steps);
        intervals = List.copyOf(intervals);
    }

    /** Without per-second intervals. */
    public FlowMeasurement(String flow, long completed, long failed, double throughput, double inFlight, Histogram latency, List<StepMeasurement> steps) {
        this(flow, completed, failed, throughput, inFlight, latency, steps, List.of());
    }
}
