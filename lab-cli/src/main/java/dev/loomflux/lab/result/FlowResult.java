package dev.loomflux.lab.result;

import java.util.List;

/**
 * One flow of a result (results.json {@code results[].flows}, docs/results-schema.md): its whole iterations over the measured
 * window, and each of its steps. An iteration's latency runs from its first step's send to its last step's response.
 *
 * @param completed     iterations that went through every step
 * @param failed        iterations a step ended: the sum of the steps' failures
 * @param throughputRps completed iterations per second of the window
 * @param inFlight      the mean number of iterations under way over the window (Little's law's L)
 * @param latencyMs     the completed iterations, in ms
 * @param hlog          the iterations' HdrHistogram log beside results.json: {@code <target>.<scenario>.<flow>.hlog}
 */
public record FlowResult(String flow, long completed, long failed, Double throughputRps, Double inFlight, Result.Latency latencyMs, String hlog,
                         List<StepResult> steps) {
    public FlowResult {
        steps = List.copyOf(steps);
    }
}
