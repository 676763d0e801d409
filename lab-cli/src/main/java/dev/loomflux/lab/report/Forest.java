package dev.loomflux.lab.report;

import dev.loomflux.lab.stats.Stats;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The comparisons as a forest plot in inline SVG (no script, nothing fetched): one row per pair and
 * metric, its ratio a / b as a dot on its 95% interval, on a log scale so that 2x and 0.5x lie as far
 * from 1; the band is the minimum effect either way (docs/statistics.md), inside which a pair is no
 * win. Every user string is escaped.
 */
final class Forest {
    /** The labels' column at least; wider for longer labels (a flow's steps: "crud/create (POST /items): p99 latency, mvc / webflux"). */
    private static final int LABELS = 300;
    /** About a character's width at the plot's 12 px sans-serif, for sizing the labels' column. */
    private static final int CHAR_PX = 7;
    private static final int PLOT = 480;
    private static final int OUTCOMES = 240;
    private static final int ROW = 22;
    private static final int TOP = 40;
    private static final int BOTTOM = 34;
    /** Where each outcome's dot and interval are drawn: a winner blue, equivalent green, undecided grey. */
    private static final String[] COLOURS = {"#3366cc", "#2e8b57", "#8c8c8c"};

    private Forest() {
    }

    static String svg(List<Answer.Row> rows) {
        double margin = 1 + Stats.MIN_EFFECT_PCT / 100;
        double lo = 1 / margin;
        double hi = margin;
        for (Answer.Row r : rows) {
            for (Double v : new Double[] {r.ratio(), r.low(), r.high()}) {
                if (v != null && v > 0) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        double pad = 0.06 * Math.log(hi / lo);
        boolean scenarios = rows.stream().map(Answer.Row::scenario).distinct().count() > 1;
        int labels = Math.max(LABELS, rows.stream().mapToInt(r -> label(r, scenarios).length()).max().orElse(0) * CHAR_PX + 20);
        Scale x = new Scale(Math.log(lo) - pad, Math.log(hi) + pad, labels);
        int width = labels + PLOT + OUTCOMES;
        int height = TOP + rows.size() * ROW + BOTTOM;
        int bottom = TOP + rows.size() * ROW;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg id=\"forest\" class=\"forest\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-size=\"12\" font-family=\"sans-serif\">",
                width, height, width, height));
        sb.append("<title>Every comparison: ratio a / b with its 95% interval, log scale</title>");
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"16\" font-weight=\"bold\">Ratio a / b and its 95%% interval (log scale); "
                + "shaded: within ±%s%%, no win</text>", labels, Cells.num(Stats.MIN_EFFECT_PCT)));
        sb.append(String.format(Locale.ROOT, "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#e3f1e6\"/>",
                x.at(1 / margin), TOP - 6, x.at(margin) - x.at(1 / margin), bottom - TOP + 6));
        for (double t : ticks(lo, hi)) {
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>", x.at(t), x.at(t), TOP - 6, bottom,
                    t == 1 ? "#555" : "#e6e6e6"));
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>", x.at(t), bottom + 16,
                    BigDecimal.valueOf(t).stripTrailingZeros().toPlainString()));
        }
        for (int i = 0; i < rows.size(); i++) {
            row(sb, rows.get(i), TOP + i * ROW + ROW / 2, x, scenarios);
        }
        return sb.append("</svg>\n").toString();
    }

    private static String label(Answer.Row r, boolean scenarios) {
        return (scenarios ? r.scenario() + ": " : "") + r.metricName() + ", " + r.pair();
    }

    private static void row(StringBuilder sb, Answer.Row r, int y, Scale x, boolean scenarios) {
        String label = label(r, scenarios);
        String colour = COLOURS[r.outcome().ordinal()];
        sb.append("<g class=\"row\" data-label=\"").append(HtmlReport.escape(label)).append("\"><title>").append(HtmlReport.escape(r.text()))
                .append("</title>");
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", x.labels() - 10, y + 4, HtmlReport.escape(label)));
        if (r.ratio() != null && r.ratio() > 0) {
            if (r.low() != null && r.high() != null && r.low() > 0) {
                sb.append(String.format(Locale.ROOT, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>",
                        x.at(r.low()), x.at(r.high()), y, y, colour));
            }
            sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\"/>", x.at(r.ratio()), y, colour));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text></g>", x.labels() + PLOT + 10, y + 4, colour,
                HtmlReport.escape(r.label() + " " + r.ratioText())));
    }

    /** 1-2-5 steps of each decade in range; near 1 (a range within 4x) also the band's neighbours 0.8, 0.9, 1.1 and 1.25. */
    static List<Double> ticks(double lo, double hi) {
        List<Double> candidates = new ArrayList<>();
        for (int e = -4; e <= 4; e++) {
            for (double m : new double[] {1, 2, 5}) {
                candidates.add(m * Math.pow(10, e));
            }
        }
        if (hi / lo < 4) {
            candidates.addAll(List.of(0.8, 0.9, 1.1, 1.25));
        }
        return candidates.stream().map(Forest::clean).filter(t -> t >= lo && t <= hi).distinct().sorted().toList();
    }

    private static double clean(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.6g", v));
    }

    /** ln(value) from {@code from} to {@code to} onto the plot's pixels, which start right of the labels' column. */
    private record Scale(double from, double to, int labels) {
        double at(double value) {
            return labels + (Math.log(value) - from) / (to - from) * PLOT;
        }
    }
}
