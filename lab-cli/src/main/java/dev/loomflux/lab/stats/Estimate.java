package dev.loomflux.lab.stats;

/**
 * The median of repeated measurements of one metric with a 95% confidence interval.
 *
 * <p>The interval is a percentile bootstrap of the median with a fixed seed, so the same samples
 * always give the same interval. With {@code n == 1} there is no spread to resample: the interval
 * is the value itself ({@code ciLow == ciHigh == median}) and says nothing about uncertainty.
 * With {@code n == 2} it spans roughly min to max. See docs/statistics.md.
 */
public record Estimate(int n, double median, double min, double max, double ciLow, double ciHigh) {
}
