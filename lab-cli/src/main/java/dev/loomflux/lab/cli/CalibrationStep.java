package dev.loomflux.lab.cli;

import java.util.List;
import java.util.Locale;

/**
 * One server measured by both load generators under the same CPUs, connections and duration.
 * CPU figures: 100 = one core busy for the whole measurement.
 *
 * @param minRatio the lowest acceptable lab / wrk throughput ratio (issue #7's goals)
 * @param maxRatio the highest; above 1 means the lab measured more than wrk
 */
record CalibrationStep(String name, double labRps, double labCpuPct, long labErrors,
                       double wrkRps, double wrkCpuPct, long wrkErrors, double minRatio, double maxRatio) {
    /** Goal on the stub: the lab offers at least 80% of what wrk offers from the same CPUs. */
    static CalibrationStep onStub(String name, double labRps, double labCpuPct, long labErrors, double wrkRps, double wrkCpuPct, long wrkErrors) {
        return new CalibrationStep(name, labRps, labCpuPct, labErrors, wrkRps, wrkCpuPct, wrkErrors, 0.80, Double.POSITIVE_INFINITY);
    }

    /** Goal on a real target: the target, not the generator, sets the figure, so both agree within 5%. */
    static CalibrationStep onTarget(String name, double labRps, double labCpuPct, long labErrors, double wrkRps, double wrkCpuPct, long wrkErrors) {
        return new CalibrationStep(name, labRps, labCpuPct, labErrors, wrkRps, wrkCpuPct, wrkErrors, 0.95, 1.05);
    }

    double ratio() {
        return wrkRps > 0 ? labRps / wrkRps : Double.NaN;
    }

    boolean met() {
        double r = ratio();
        return r >= minRatio && r <= maxRatio;
    }

    String goal() {
        return Double.isInfinite(maxRatio)
                ? String.format(Locale.ROOT, ">= %.2f", minRatio)
                : String.format(Locale.ROOT, "%.2f-%.2f", minRatio, maxRatio);
    }

    /** The line printed as each step finishes. */
    String line() {
        return String.format(Locale.ROOT, "%s: lab %,.0f requests/s (CPU %.0f%%), wrk %,.0f requests/s (CPU %.0f%%), ratio %.3f (goal %s: %s)",
                name, labRps, labCpuPct, wrkRps, wrkCpuPct, ratio(), goal(), met() ? "met" : "missed");
    }

    static List<String> table(List<CalibrationStep> steps) {
        String fmt = "%-24s %10s %8s %10s %8s %7s %10s %6s";
        List<String> out = new java.util.ArrayList<>();
        out.add(String.format(Locale.ROOT, fmt, "STEP", "LAB RPS", "LAB CPU", "WRK RPS", "WRK CPU", "RATIO", "GOAL", ""));
        for (CalibrationStep s : steps) {
            out.add(String.format(Locale.ROOT, fmt, s.name(), String.format(Locale.ROOT, "%,.0f", s.labRps()),
                    String.format(Locale.ROOT, "%.0f%%", s.labCpuPct()), String.format(Locale.ROOT, "%,.0f", s.wrkRps()),
                    String.format(Locale.ROOT, "%.0f%%", s.wrkCpuPct()), String.format(Locale.ROOT, "%.3f", s.ratio()),
                    s.goal(), s.met() ? "met" : "missed"));
        }
        return out;
    }
}
