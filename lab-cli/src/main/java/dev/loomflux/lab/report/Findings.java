package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import dev.loomflux.lab.stats.Stats;
import dev.loomflux.lab.stats.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The executive summary and the caveats: what the numbers support, and what limits them.
 *
 * <p>With repeats (n >= 3 per side) the verdicts of results.json's summary are used as they are.
 * A single run has no run-to-run spread, so its per-second values stand in for noise: a difference
 * is called clear only when the per-second samples differ significantly (Stats.compare) AND by at
 * least {@link #SINGLE_RUN_MIN_PCT}%, because seconds of one run are correlated and would make small
 * differences look significant.
 */
final class Findings {
    static final double SINGLE_RUN_MIN_PCT = 10;

    private record Metric(String label, String unit, boolean higherIsBetter, ToDoubleFunction<JsonNode> total, String seriesField) {
    }

    private static final List<Metric> METRICS = List.of(
            new Metric("Throughput", "rps", true, r -> r.path("throughput_rps").asDouble(), "rps"),
            new Metric("Median latency", "ms", false, r -> r.path("latency_ms").path("p50").asDouble(), "p50"),
            new Metric("p99 latency", "ms", false, r -> r.path("latency_ms").path("p99").asDouble(), "p99"));

    private Findings() {
    }

    /** Bullet lines for one scenario. */
    static List<String> summary(JsonNode root, String scenario, List<JsonNode> ok) {
        List<String> lines = new ArrayList<>();
        if (ok.isEmpty()) {
            lines.add("- no successful measurement");
            return lines;
        }
        boolean repeated = root.path("experiment").path("repeat").asInt(1) >= Stats.MIN_REPEATS;
        for (Metric m : METRICS) {
            lines.add(repeated ? fromRepeats(root, scenario, m) : fromOneRun(ok, m));
        }
        lines.add(errors(ok));
        return lines;
    }

    private static String fromRepeats(JsonNode root, String scenario, Metric m) {
        String key = m.seriesField().equals("rps") ? "throughput_rps" : m.seriesField() + "_ms";
        List<String> parts = new ArrayList<>();
        for (JsonNode v : root.path("summary").path("verdicts")) {
            if (v.path("scenario").asText().equals(scenario) && v.path("metric").asText().equals(key)) {
                parts.add(v.path("a").asText() + " vs " + v.path("b").asText() + ": " + v.path("text").asText());
            }
        }
        return "- " + m.label() + " (medians of repeats): " + (parts.isEmpty() ? "only one target" : String.join("; ", parts));
    }

    private static String fromOneRun(List<JsonNode> ok, Metric m) {
        List<JsonNode> sorted = new ArrayList<>(ok);
        Comparator<JsonNode> byValue = Comparator.comparingDouble(m.total());
        sorted.sort(m.higherIsBetter() ? byValue.reversed() : byValue);
        JsonNode best = sorted.get(0);
        double bestValue = m.total().applyAsDouble(best);
        StringBuilder sb = new StringBuilder("- " + m.label() + ": " + name(best) + " best at " + Cells.num(number(bestValue)) + " " + m.unit());
        if (sorted.size() == 1) {
            return sb.toString();
        }
        List<String> others = new ArrayList<>();
        for (JsonNode other : sorted.subList(1, sorted.size())) {
            double v = m.total().applyAsDouble(other);
            double diff = bestValue == 0 ? 0 : (v - bestValue) / bestValue * 100;
            Verdict verdict = Stats.compare(m.label(), name(best), series(best, m), name(other), series(other, m), m.higherIsBetter());
            boolean clear = verdict.significant() && Math.abs(diff) >= SINGLE_RUN_MIN_PCT;
            others.add(String.format(Locale.ROOT, "%s %s %s (%s, %s)", name(other), Cells.num(number(v)), m.unit(), Cells.pct(diff),
                    clear ? "clear" : "no clear difference in one run"));
        }
        return sb.append("; ").append(String.join(", ", others)).toString();
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
            out.add("- One run per target x scenario: differences under " + (int) SINGLE_RUN_MIN_PCT
                    + "% cannot be told from run-to-run noise here. Use --repeat 3 (or more) for confidence intervals and verdicts.");
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
            if (r.path("warmup").has("stable") && !r.path("warmup").path("stable").asBoolean() && r.path("warmup").path("windows_rps").size() >= 2) {
                out.add("- " + who + ": throughput was still changing at the end of warmup " + r.path("warmup").path("windows_rps")
                        + " rps; the measurement may include JIT warmup.");
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

    private static double[] series(JsonNode r, Metric m) {
        List<Double> v = new ArrayList<>();
        for (JsonNode s : r.path("series")) {
            if (s.path(m.seriesField()).isNumber()) {
                v.add(s.path(m.seriesField()).asDouble());
            }
        }
        return v.isEmpty() ? new double[] {m.total().applyAsDouble(r)} : v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
