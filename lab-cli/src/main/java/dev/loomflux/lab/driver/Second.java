package dev.loomflux.lab.driver;

/**
 * One second of a run. Requests, responses, errors and latencies belong to the second in which the
 * request started, as far as Hyperfoil's samples tell: they are 1 s windows counted from each phase's
 * start, which falls a few ms into a second of the run, except during the loops ramp-up (there a
 * request can be filed up to 1 s early).
 *
 * @param t         seconds since the measured load started, from 0
 * @param requests  requests started in this second
 * @param responses responses (any status) to those requests
 * @param rps       responses per second; the last second of a run may be shorter than 1 s
 * @param p50Ms     median latency in ms; NaN when the second had no responses
 * @param p99Ms     99th percentile latency in ms; NaN when the second had no responses
 * @param errors    failed requests ({@link Errors#total()})
 * @param users     active users (sessions), averaged over the second
 * @param intended  rate profile: arrivals the schedule asked for in this second; -1 for closed models
 */
public record Second(int t, long requests, long responses, double rps, double p50Ms, double p99Ms, long errors,
                     int users, long intended) {
}
