package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/** How numbers and ranges read in report tables: "-" for absent, no noise digits. */
final class Cells {
    private Cells() {
    }

    static String num(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return "-";
        }
        if (!n.isNumber()) {
            return n.asText();
        }
        double v = n.asDouble();
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%d", (long) v);
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : Math.abs(v) >= 10 ? "%.1f" : "%.2f", v);
    }

    /** "min - max", or one value when they agree. */
    static String range(JsonNode r) {
        if (r == null || r.isMissingNode() || r.isNull()) {
            return "-";
        }
        String min = num(r.path("min"));
        String max = num(r.path("max"));
        return min.equals(max) ? min : min + " - " + max;
    }

    static String pct(double v) {
        return String.format(Locale.ROOT, "%+.1f%%", v);
    }
}
