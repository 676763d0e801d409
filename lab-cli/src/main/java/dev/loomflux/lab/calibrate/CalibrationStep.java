package dev.loomflux.lab.calibrate;

import dev.loomflux.lab.stats.Estimate;
import dev.loomflux.lab.stats.Stats;
import java.util.List;
import java.util.Locale;

/**
 * One server measured by both load generators under the same CPUs, connections and duration, in
 * rounds. Throughput and CPU are medians over the rounds; CPU 100 = one core busy throughout.
 *
 * @param ratio    lab / wrk throughput per round (each round's two measurements are adjacent in
 *                 time, so a ratio within a round cancels most of a shared machine's drift): its
 *                 median and 95% bootstrap interval
 * @param minRatio the lowest acceptable lab / wrk throughput ratio (issue #7's goals)
 * @param maxRatio the highest; above 1 means the lab measured more than wrk
 */
record CalibrationStep(String name, double labRps, double labCpuPct, long labErrors,
                       double wrkRps, double wrkCpuPct, long wrkErrors, Estimate ratio, double minRatio, double maxRatio) {
    /** Goal on the stub: the lab offers at least 80% of what wrk offers from the same CPUs. */
    static CalibrationStep onStub(String name, double labRps, double labCpuPct, long labErrors, double wrkRps, double wrkCpuPct, long wrkErrors, Estimate ratio) {
        return new CalibrationStep(name, labRps, labCpuPct, labErrors, wrkRps, wrkCpuPct, wrkErrors, ratio, 0.80, Double.POSITIVE_INFINITY);
    }

    /** Goal on a real target: the target, not the generator, sets the figure, so both agree within 5%. */
    static CalibrationStep onTarget(String name, double labRps, double labCpuPct, long labErrors, double wrkRps, double wrkCpuPct, long wrkErrors, Estimate ratio) {
        return new CalibrationStep(name, labRps, labCpuPct, labErrors, wrkRps, wrkCpuPct, wrkErrors, ratio, 0.95, 1.05);
    }

    /** The per-round ratios, each lab / wrk; wrk must have completed requests in every round. */
    static Estimate ratios(double[] labRps, double[] wrkRps) {
        double[] r = new double[labRps.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = labRps[i] / wrkRps[i];
        }
        return Stats.summarize(r);
    }

    /** On the median; {@link #status()} says whether the interval confirms it. */
    boolean met() {
        return within(ratio.median());
    }

    private boolean within(double r) {
        return r >= minRatio && r <= maxRatio;
    }

    /**
     * "met" or "missed" when the whole 95% interval agrees with the median; otherwise the median's
     * reading marked "unsure", since on a noisy machine a median alone can land either side by luck.
     */
    String status() {
        String median = met() ? "met" : "missed";
        if (ratio.n() < 2) {
            return median + " (1 round)";
        }
        boolean lowIn = within(ratio.ciLow());
        boolean highIn = within(ratio.ciHigh());
        if (lowIn && highIn) {
            return "met";
        }
        boolean allBelow = ratio.ciHigh() < minRatio;
        boolean allAbove = ratio.ciLow() > maxRatio;
        if (allBelow || allAbove) {
            return "missed";
        }
        return "unsure, median " + median;
    }

    String interval() {
        return ratio.n() < 2 ? "(1 round)" : String.format(Locale.ROOT, "%.3f-%.3f", ratio.ciLow(), ratio.ciHigh());
    }

    String goal() {
        return Double.isInfinite(maxRatio)
                ? String.format(Locale.ROOT, ">= %.2f", minRatio)
                : String.format(Locale.ROOT, "%.2f-%.2f", minRatio, maxRatio);
    }

    /** The line printed as each step finishes. */
    String line() {
        return String.format(Locale.ROOT, "%s: lab %,.0f requests/s (CPU %.0f%%, %d errors), wrk %,.0f requests/s (CPU %.0f%%, %d errors), "
                        + "ratio %.3f (median of %d rounds, 95%% CI %s; goal %s: %s)",
                name, labRps, labCpuPct, labErrors, wrkRps, wrkCpuPct, wrkErrors, ratio.median(), ratio.n(), interval(), goal(), status());
    }

    static List<String> table(List<CalibrationStep> steps) {
        String fmt = "%-24s %10s %8s %10s %8s %7s %13s %10s  %s";
        List<String> out = new java.util.ArrayList<>();
        out.add(String.format(Locale.ROOT, fmt, "STEP", "LAB RPS", "LAB CPU", "WRK RPS", "WRK CPU", "RATIO", "RATIO 95% CI", "GOAL", ""));
        for (CalibrationStep s : steps) {
            out.add(String.format(Locale.ROOT, fmt, s.name(), String.format(Locale.ROOT, "%,.0f", s.labRps()),
                    String.format(Locale.ROOT, "%.0f%%", s.labCpuPct()), String.format(Locale.ROOT, "%,.0f", s.wrkRps()),
                    String.format(Locale.ROOT, "%.0f%%", s.wrkCpuPct()), String.format(Locale.ROOT, "%.3f", s.ratio().median()),
                    s.interval(), s.goal(), s.status()));
        }
        return out;
    }
}
