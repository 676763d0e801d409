package dev.loomflux.lab.driver;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one step of a flow measured over the window: its requests as one request scenario's are counted, and
 * the ways the step failed. Every failure ends the user's iteration, so a flow's failed iterations are its
 * steps' failures.
 *
 * @param request    as the step reads, e.g. {@code POST /items}
 * @param throughput the step's responses (any status) per second of the window, each by its share of time in
 *                   flight inside it ({@link WindowShare})
 * @param latency    the step's responses, in nanoseconds
 * @param errors     the step's failed requests by cause, as for any request
 * @param unexpected responses with a status the step does not expect and that is no error of its own: a 200
 *                   where the step expects 201, a 3xx
 * @param missing    responses with the expected status without a value the step extracts
 * @param extracts   what the step extracts, as its missing values' cause reads: {@code $.id}, {@code header Location}
 * @param intervals  the step's responses per second of the window, with start/end timestamps (epoch ms), for a .hlog; empty
 *                   when the driver keeps none (a .hlog then holds {@code latency} as one interval)
 */
public record StepMeasurement(String step, String request, long requests, long responses, double throughput, Histogram latency, Errors errors,
                              long unexpected, long missing, String extracts, List<Histogram> intervals) {
    public StepMeasurement {
        intervals = List.copyOf(intervals);
    }

    /** Without per-second intervals. */
    public StepMeasurement(String step, String request, long requests, long responses, double throughput, Histogram latency, Errors errors,
                           long unexpected, long missing, String extracts) {
        this(step, request, requests, responses, throughput, latency, errors, unexpected, missing, extracts, List.of());
    }

    /** The step's failures: each ended its user's iteration. */
    public long failures() {
        return errors.total() + unexpected + missing;
    }

    /** The cause of the step's missing values, as a run reports it: {@code step create: no $.id in the response}. */
    public String missingCause() {
        return "step " + step + ": no " + extracts + " in the response";
    }
}
