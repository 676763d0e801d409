package dev.loomflux.lab.result;

/**
 * One step of a flow in a result (results.json {@code results[].flows[].steps}): its requests, as a one-request scenario's are
 * counted, and the ways it failed. Each failure ended its user's iteration.
 *
 * @param request       as the step reads: {@code POST /items}
 * @param throughputRps the step's responses (any status) per second of the window
 * @param latencyMs     the step's responses, in ms
 * @param errors        its failures by cause: the request's (connect, timeout, 4xx, 5xx, other) and the step's own (unexpected
 *                      status, missing value); total counts them all
 * @param missingCause  what a missing value lacked, as the run reports it: {@code step create: no $.id in the response}; null
 *                      when no response lacked one
 * @param hlog          the step's HdrHistogram log beside results.json: {@code <target>.<scenario>.<flow>.<step>.hlog}
 */
public record StepResult(String step, String request, long requests, long responses, Double throughputRps, Result.Latency latencyMs,
                         Result.ErrorCounts errors, String missingCause, String hlog) {
}
