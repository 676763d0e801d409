package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.Metric;

import dev.loomflux.lab.UsageException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code p99:+10%}: fail when p99 rose by more than 10%; {@code throughput:-5%}: when it fell by more than 5%. */
public record Threshold(Metric metric, double percent) {
    private static final Pattern SYNTAX = Pattern.compile("([a-z0-9]+):([+-])([0-9]+(?:\\.[0-9]+)?)%");

    public static Threshold parse(String text) {
        Matcher m = SYNTAX.matcher(text.trim());
        if (!m.matches()) {
            throw new UsageException("--fail-on " + text + ": expected METRIC:+N% or METRIC:-N%, e.g. p99:+10% or throughput:-5%");
        }
        Metric metric = Metric.byId(m.group(1));
        if (metric == null) {
            throw new UsageException("--fail-on " + text + ": unknown metric '" + m.group(1)
                    + "' (known: throughput, mean, p50, p90, p99, max, errors)");
        }
        double pct = Double.parseDouble(m.group(3));
        return new Threshold(metric, m.group(2).equals("-") ? -pct : pct);
    }

    /** @param changePercent (B - A) / A in percent */
    boolean breachedBy(double changePercent) {
        return percent >= 0 ? changePercent > percent : changePercent < percent;
    }

    @Override
    public String toString() {
        return metric.id() + ":" + (percent >= 0 ? "+" : "") + percent + "%";
    }
}
