package dev.loomflux.lab.stats;

/**
 * Whether B differs from A on one metric, from repeated runs of each.
 *
 * @param metric      what was compared, e.g. {@code throughput}
 * @param winner      the better side's name when {@code significant}, else null
 * @param diffPct     (median(B) - median(A)) / median(A) * 100; NaN when median(A) is 0
 * @param ciLowPct    lower end of the 95% bootstrap interval of {@code diffPct}
 * @param ciHighPct   upper end of that interval
 * @param significant the interval excludes 0, each side has at least 3 samples, and a two-sided
 *                    Mann-Whitney U test gives p < 0.05
 * @param text        one line for a report, e.g. "webflux ahead by 12.3% (95% CI 8.1% to 16.0%)";
 *                    the percentages in a "... ahead" line are the winner's advantage relative to
 *                    the loser, in the metric's better direction
 */
public record Verdict(String metric, String winner, double diffPct, double ciLowPct, double ciHighPct,
                      boolean significant, String text) {
}
