package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
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
    private record Metric(String label, String unit, boolean higherIsBetter, ToDoubleFunction<JsonNode> total, String key) {
    }

    /** One target's figure: the median of its results (one each unless --repeat 2). */
    private record Figure(String target, double value, boolean steady) {
    }

    private static final List<Metric> METRICS = List.of(
            new Metric("Throughput", "rps", true, r -> r.path("throughput_rps").asDouble(), "throughput_rps"),
            new Metric("Median latency", "ms", false, r -> r.path("latency_ms").path("p50").asDouble(), "p50_ms"),
            new Metric("p99 latency", "ms", false, r -> r.path("latency_ms").path("p99").asDouble(), "p99_ms"));

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
            lines.add(lead + "capacity search; see \"Capacity at the SLO\".");
            return lines;
        }
        int repeat = root.path("experiment").path("repeat").asInt(1);
        if (repeat >= Stats.MIN_REPEATS) {
            lines.add(lead + repeatHeadline(root, scenario));
            METRICS.forEach(m -> lines.add(fromRepeats(root, scenario, m)));
        } else {
            String runs = repeat == 1 ? "one run" : repeat + " runs each";
            lines.add(lead + runHeadline(ranked(ok, METRICS.get(0)), runs));
            METRICS.forEach(m -> lines.add(fromRuns(ranked(ok, m), m, runs)));
        }
        lines.add(errors(ok));
        return lines;
    }

    private static String runHeadline(List<Figure> throughput, String runs) {
        Figure top = throughput.get(0);
        String value = Cells.num(number(top.value())) + " rps" + (top.steady() ? "" : ", not steady");
        List<String> unsteady = throughput.stream().filter(f -> !f.steady()).map(Figure::target).toList();
        String steadiness = unsteady.isEmpty() ? " Every result was steady." : " Not steady: " + String.join(", ", unsteady) + " (see Caveats).";
        return (throughput.size() == 1 ? top.target() + " alone: " + value + " in " + runs + "."
                : top.target() + " had the highest throughput (" + value + ") in " + runs + "; no verdict from " + runs + ".") + steadiness;
    }

    /** The significant verdicts, each as "winner ahead of loser by ...". */
    private static String repeatHeadline(JsonNode root, String scenario) {
        List<String> leads = new ArrayList<>();
        boolean unsteady = false;
        for (JsonNode v : verdicts(root, scenario, null)) {
            String text = v.path("text").asText();
            unsteady |= text.startsWith("not steady");
            if (v.path("significant").asBoolean()) {
                String winner = v.path("winner").asText();
                String loser = winner.equals(v.path("a").asText()) ? v.path("b").asText() : v.path("a").asText();
                String ahead = winner + " ahead";
                leads.add(metricName(v.path("metric").asText()) + " " + (text.startsWith(ahead)
                        ? ahead + " of " + loser + text.substring(ahead.length()) : v.path("a").asText() + " vs " + v.path("b").asText() + ": " + text));
            }
        }
        if (!leads.isEmpty()) {
            return String.join("; ", leads) + ".";
        }
        return "no clear difference between any targets" + (unsteady ? "; some results were not steady, so their pairs have no verdict." : ".");
    }

    private static String metricName(String key) {
        return METRICS.stream().filter(m -> m.key().equals(key)).map(m -> m.label().toLowerCase(Locale.ROOT) + ":").findFirst().orElse(key + ":");
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

    private static String fromRepeats(JsonNode root, String scenario, Metric m) {
        List<String> parts = new ArrayList<>();
        for (JsonNode v : verdicts(root, scenario, m.key())) {
            parts.add(v.path("a").asText() + " vs " + v.path("b").asText() + ": " + v.path("text").asText());
        }
        return "- " + m.label() + " (medians of repeats): " + (parts.isEmpty() ? "only one target" : String.join("; ", parts));
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
        byTarget.forEach((target, rs) -> out.add(new Figure(target, new Median().evaluate(rs.stream().mapToDouble(m.total()).toArray()),
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
