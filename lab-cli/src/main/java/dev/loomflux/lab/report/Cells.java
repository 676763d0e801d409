package dev.loomflux.lab.report;

import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.PhaseStats;
import dev.loomflux.lab.result.SweepMap;
import java.util.Locale;

/** How numbers and ranges read in report tables: "-" for absent, no noise digits. */
final class Cells {
    private Cells() {
    }

    /** The paired design's blocks in words: "1 s blocks", or "blocks of the whole stages load" for a shape (docs/guide.md, "Shapes in rounds"). */
    static String blocks(ExperimentDescription exp) {
        return wholeShapes(exp) ? "blocks of the whole " + exp.profile().kind() + " load" : num(exp.design().blockS()) + " s blocks";
    }

    /** Whether the paired design's blocks were whole shapes (stages, loops, a burst), with no lead-in and no length of their own. */
    static boolean wholeShapes(ExperimentDescription exp) {
        String kind = exp.profile() == null ? null : exp.profile().kind();
        return kind != null && !kind.equals("fixed") && !kind.equals("rate");
    }

    static String num(Number n) {
        if (n == null) {
            return "-";
        }
        double v = n.doubleValue();
        if (!Double.isFinite(v)) {
            return "-";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%d", (long) v);
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : Math.abs(v) >= 10 ? "%.1f" : "%.2f", v);
    }

    /** "min - max", or one value when they agree. */
    static String range(PhaseStats.Range r) {
        if (r == null) {
            return "-";
        }
        String min = num(r.min());
        String max = num(r.max());
        return min.equals(max) ? min : min + " - " + max;
    }

    /**
     * A sweep cell's verdict on one metric: "mvc-vt by 850%", "no clear difference", "not steady",
     * "mvc? (too few repeats)", with "; webflux not measured" when a target has no result there.
     */
    static String label(SweepMap.Cell cell, String metric) {
        SweepMap.Winner w = cell.winner(metric);
        String verdict = w == null ? "-" : switch (w.verdict()) {
            case SweepMap.CLEAR -> w.leader() + (w.marginPct() == null ? "" : " by " + num(w.marginPct()) + "%");
            case SweepMap.TOO_FEW -> w.leader() + "? (too few repeats)";
            default -> w.verdict();
        };
        return cell.unmeasured() == null ? verdict : verdict + "; " + String.join(", ", cell.unmeasured()) + " not measured";
    }

    static String pct(double v) {
        return String.format(Locale.ROOT, "%+.1f%%", v);
    }
}
