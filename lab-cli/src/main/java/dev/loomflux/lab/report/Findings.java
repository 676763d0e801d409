package dev.loomflux.lab.report;

import dev.loomflux.lab.result.Metric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * The executive summary and the caveats: what the numbers support, and what limits them.
 *
 * <p>Only repeats give verdicts (results.json's summary, used as it is). One run per target gives
 * none: the CPU speed of the lab's VM was measured to vary by up to 40% over tens of seconds, so a
 * difference between two single runs cannot be told from a change of the machine, however many
 * per-second samples each has. A single run therefore states its figures and says so.
 */
final class Findings {
    /** One target's figure: the median of its results (one each unless --repeat 2). */
    private record Figure(String target, double value, boolean steady) {
    }

    private static final List<Metric> METRICS = Metric.SUMMARIZED;

    private Findings() {
    }

    /** The scenario's headline (bold lead) and its bullet lines. */
    static List<String> summary(JsonNode root, String scenario, List<JsonNode> ok) {
        List<String> lines = new ArrayList<>();
        String lead = "**" + scenario + ":** ";
        if (ok.isEmpty()) {
            lines.add(lead + "no successful measurement.");
            return lines;
        }
        if (ok.stream().allMatch(r -> r.has("step"))) {
            lines.add(lead + capacityHeadline(root, scenario));
            return lines;
        }
        int repeat = root.path("experiment").path("repeat").asInt(1);
        if (repeat >= Stats.MIN_REPEATS) {
            lines.add(lead + repeatHeadline(root, scenario, ok, repeat));
        } else {
            String runs = repeat == 1 ? "one run" : repeat + " runs each";
            lines.add(lead + runHeadline(ranked(ok, METRICS.get(0)), runs));
            METRICS.forEach(m -> lines.add(fromRuns(ranked(ok, m), m, runs)));
        }
        lines.add(errors(ok));
        return lines;
    }

    /** Highest capacity first: the medians over searches when there were several, else each target's one search. */
    private static String capacityHeadline(JsonNode root, String scenario) {
        boolean medians = root.has("capacity_summary");
        List<JsonNode> cells = new ArrayList<>();
        (medians ? root.path("capacity_summary") : root.path("capacity")).forEach(c -> {
            if (c.path("scenario").asText().equals(scenario)) {
                cells.add(c);
            }
        });
        if (cells.isEmpty()) {
            return "no capacity found (see \"Capacity at the SLO\").";
        }
        String key = medians ? "median_rps" : "capacity_rps";
        cells.sort(Comparator.comparingDouble((JsonNode c) -> c.path(key).asDouble()).reversed());
        List<String> parts = new ArrayList<>();
        for (JsonNode c : cells) {
            parts.add(c.path("target").asText() + " " + Cells.num(c.path(key)) + " rps"
                    + (medians ? " (" + Cells.num(c.path("min_rps")) + "-" + Cells.num(c.path("max_rps")) + ")" : ""));
        }
        String slo = cells.get(0).path("slo").asText();
        return medians
                ? "median capacity at " + slo + ": " + String.join(", ", parts) + ", over " + cells.get(0).path("n").asInt()
                        + " searches each (min-max in parentheses; see \"Capacity at the SLO\")."
                : "capacity at " + slo + ": " + String.join(", ", parts) + "; one search each, so no verdict: fresh JVMs of one target "
                        + "settle apart (./lab capacity --repeat 3 for medians).";
    }

    private static String runHeadline(List<Figure> throughput, String runs) {
        Figure top = throughput.get(0);
        String value = Cells.num(number(top.value())) + " rps" + (top.steady() ? "" : ", not steady");
        List<String> unsteady = throughput.stream().filter(f -> !f.steady()).map(Figure::target).toList();
        String steadiness = unsteady.isEmpty() ? " Every result was steady." : " Not steady: " + String.join(", ", unsteady) + " (see Caveats).";
        return (throughput.size() == 1 ? top.target() + " alone: " + value + " in " + runs + "."
                : top.target() + " had the highest throughput (" + value + ") in " + runs + "; no verdict from " + runs + ".") + steadiness;
    }

    /**
     * One sentence per scenario that answers the question, in the words a reader would use: "mvc
     * serves 1.20x mvc-vt's and 1.66x webflux's throughput; median latency: mvc lowest (clear against
     * mvc-vt, webflux); p99: no clear difference". Every claim in it is a significant verdict of
     * results.json's summary; the ratios are of the medians that verdict compared.
     */
    private static String repeatHeadline(JsonNode root, String scenario, List<JsonNode> ok, int repeat) {
        List<String> clauses = new ArrayList<>();
        for (Metric m : METRICS) {
            List<Figure> ranked = ranked(ok, m);
            Figure top = ranked.get(0);
            if (ranked.size() < 2) {
                return top.target() + " alone: " + Cells.num(number(top.value())) + " rps (median of " + repeat + " repeats).";
            }
            List<String> clear = new ArrayList<>();
            List<String> unclear = new ArrayList<>();
            List<String> unsteady = new ArrayList<>();
            for (Figure other : ranked.subList(1, ranked.size())) {
                JsonNode v = verdict(root, scenario, m.summaryName(), top.target(), other.target());
                if (v.path("significant").asBoolean() && v.path("winner").asText().equals(top.target())) {
                    clear.add(m.higherIsBetter() ? ratio(top.value(), other.value()) + "x " + other.target() + "'s" : other.target());
                } else if (v.path("text").asText().startsWith("not steady")) {
                    unsteady.add(other.target());
                } else {
                    unclear.add(other.target());
                }
            }
            clauses.add(clause(m, top.target(), clear, unclear, unsteady));
        }
        List<String> notSteady = new ArrayList<>();
        ok.stream().filter(r -> !steady(r)).forEach(r -> notSteady.add(name(r) + " repeat " + r.path("repeat").asInt(1)));
        return String.join("; ", clauses) + ". Medians of " + repeat + " repeats per target, 95% confidence; "
                + (notSteady.isEmpty() ? "every result steady." : "not steady: " + String.join(", ", notSteady)
                + " (their pairs get no verdict; see Caveats).");
    }

    private static String clause(Metric m, String top, List<String> clear, List<String> unclear, List<String> unsteady) {
        String label = m.words();
        if (clear.isEmpty() && unsteady.isEmpty()) {
            return label + ": no clear difference";
        }
        List<String> parts = new ArrayList<>();
        if (clear.isEmpty()) {
            parts.add(label + ": " + top + (m.higherIsBetter() ? " highest" : " lowest"));
        } else {
            parts.add(m.higherIsBetter() ? top + " serves " + String.join(" and ", clear) + " throughput"
                    : label + ": " + top + " lowest (clear against " + String.join(", ", clear) + ")");
        }
        if (!unclear.isEmpty()) {
            parts.add("no clear difference from " + String.join(", ", unclear));
        }
        if (!unsteady.isEmpty()) {
            parts.add("no verdict against " + String.join(", ", unsteady) + " (not steady)");
        }
        return String.join(", ", parts);
    }

    private static String ratio(double a, double b) {
        return b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", a / b);
    }

    private static JsonNode verdict(JsonNode root, String scenario, String metric, String x, String y) {
        for (JsonNode v : verdicts(root, scenario, metric)) {
            String a = v.path("a").asText();
            String b = v.path("b").asText();
            if (a.equals(x) && b.equals(y) || a.equals(y) && b.equals(x)) {
                return v;
            }
        }
        return MissingNode.getInstance();
    }

    /** Every verdict of the run: the details behind the headlines. */
    static Table verdictTable(JsonNode root) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode v : root.path("summary").path("verdicts")) {
            Metric m = Metric.bySummaryName(v.path("metric").asText());
            String metric = m == null ? v.path("metric").asText() : m.label().toLowerCase(Locale.ROOT);
            rows.add(List.of(v.path("scenario").asText(), metric, v.path("a").asText() + " vs " + v.path("b").asText(), v.path("text").asText()));
        }
        return new Table("Verdicts (medians of repeats)", List.of("scenario", "metric", "pair", "verdict"), rows);
    }

    private static List<JsonNode> verdicts(JsonNode root, String scenario, String metric) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode v : root.path("summary").path("verdicts")) {
            if (v.path("scenario").asText().equals(scenario) && (metric == null || v.path("metric").asText().equals(metric))) {
                out.add(v);
            }
        }
        return out;
    }

    private static String fromRuns(List<Figure> ranked, Metric m, String runs) {
        double first = ranked.get(0).value();
        List<String> parts = new ArrayList<>();
        for (Figure f : ranked) {
            List<String> notes = new ArrayList<>();
            if (f != ranked.get(0)) {
                notes.add(Cells.pct(first == 0 ? 0 : (f.value() - first) / first * 100));
            }
            if (!f.steady()) {
                notes.add("not steady");
            }
            parts.add(f.target() + " " + Cells.num(number(f.value())) + " " + m.unit() + (notes.isEmpty() ? "" : " (" + String.join(", ", notes) + ")"));
        }
        return "- " + m.label() + ": " + String.join(", ", parts) + "; " + runs + ": no verdict (run --repeat 3 for one)";
    }

    private static List<Figure> ranked(List<JsonNode> ok, Metric m) {
        Map<String, List<JsonNode>> byTarget = new LinkedHashMap<>();
        ok.forEach(r -> byTarget.computeIfAbsent(name(r), k -> new ArrayList<>()).add(r));
        List<Figure> out = new ArrayList<>();
        byTarget.forEach((target, rs) -> out.add(new Figure(target, new Median().evaluate(rs.stream().mapToDouble(m::read).toArray()),
                rs.stream().allMatch(Findings::steady))));
        Comparator<Figure> byValue = Comparator.comparingDouble(Figure::value);
        out.sort(m.higherIsBetter() ? byValue.reversed() : byValue);
        return out;
    }

    /** Results from before the steady-state check have no steady_state and count as steady, as they did. */
    private static boolean steady(JsonNode r) {
        return r.path("steady_state").path("steady").asBoolean(true);
    }

    private static String errors(List<JsonNode> ok) {
        List<String> parts = new ArrayList<>();
        for (JsonNode r : ok) {
            long errors = r.path("errors").path("total").asLong();
            if (errors > 0) {
                parts.add(String.format(Locale.ROOT, "%s %d (%.2f%% of requests)", name(r), errors, 100.0 * errors / Math.max(1, r.path("requests").asLong())));
            }
        }
        return "- Errors: " + (parts.isEmpty() ? "none" : String.join(", ", parts));
    }

    /** What limits these numbers. */
    static List<String> caveats(JsonNode root) {
        List<String> out = new ArrayList<>();
        JsonNode exp = root.path("experiment");
        String kind = exp.path("profile").path("kind").asText();
        if (!root.path("status").asText().equals("completed")) {
            out.add("- The run did not complete (status " + root.path("status").asText() + "): results are partial.");
        }
        if (!kind.equals("rate") && !root.has("capacity")) {
            out.add("- Closed model (" + kind + "): each user waits for its response before sending again, so when a server "
                    + "saturates it is offered less load and its percentiles are optimistic (coordinated omission). "
                    + "For latency at a given load use --profile rate or ./lab capacity.");
        }
        if (exp.path("repeat").asInt(1) < Stats.MIN_REPEATS) {
            out.add("- Fewer than " + Stats.MIN_REPEATS + " runs per target x scenario: no verdicts. The machine's CPU speed can change "
                    + "by tens of percent within a minute, so a difference between single runs may be the machine's, not the targets'. "
                    + "Use --repeat 3 (or more) for confidence intervals and verdicts.");
        }
        if (!root.path("environment").path("pinning").path("applied").asBoolean(true)) {
            out.add("- CPU pinning was not applied (" + root.path("environment").path("pinning").path("note").asText()
                    + "): the driver and the target shared CPUs.");
        }
        for (JsonNode r : root.path("results")) {
            String who = name(r) + " " + r.path("scenario").asText() + (r.has("step") ? " step " + r.path("step").asInt()
                    : r.path("repeat").asInt(1) > 1 ? " repeat " + r.path("repeat").asInt() : "");
            if (!r.path("status").asText().equals("ok")) {
                out.add("- " + who + " failed: " + firstLine(r.path("error").asText()));
                continue;
            }
            if (r.path("driver").path("saturated").asBoolean()) {
                out.add("- " + who + ": the driver saturated its CPU (" + Cells.num(r.path("driver").path("cpu_pct_max"))
                        + "%); the numbers describe the driver, not the target.");
            }
            if (r.path("behind_schedule").asBoolean()) {
                out.add("- " + who + ": the driver fell behind the arrival schedule; requests it could not send are missing from the latencies.");
            }
            if (r.path("duration_s").asDouble() < 10) {
                out.add("- " + who + ": measured for only " + Cells.num(r.path("duration_s")) + " s; short runs are noisy.");
            }
            JsonNode ss = r.path("steady_state");
            if (ss.has("reached") && !ss.path("reached").asBoolean()) {
                List<String> reasons = new ArrayList<>();
                ss.path("rule").path("reasons").forEach(x -> reasons.add(x.asText()));
                out.add("- " + who + ": not steady after " + Cells.num(ss.path("warmup_s")) + " s of warmup"
                        + (reasons.isEmpty() ? "" : " (" + String.join("; ", reasons) + ")") + "; its figures may include JIT warmup. Use a longer --warmup.");
            }
            if (ss.path("drift").path("drifting").asBoolean()) {
                out.add("- " + who + ": " + ss.path("drift").path("note").asText());
            }
        }
        return out;
    }

    static String name(JsonNode r) {
        return r.path("target").asText();
    }

    private static JsonNode number(double v) {
        return DoubleNode.valueOf(v);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
