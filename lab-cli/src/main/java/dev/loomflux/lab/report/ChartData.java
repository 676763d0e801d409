package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * The charts of report.html as data: per scenario, every target overlaid, over time (with the
 * profile's phases as bands), as a latency percentile distribution from the .hlog files, and its
 * warmup from the first request (with a mark where it became steady).
 */
final class ChartData {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Percentile axis in "nines": x = -log10(1 - p), so 1 = 90%, 2 = 99%, 3 = 99.9%. */
    private static final double NINES_STEP = 0.05;

    private ChartData() {
    }

    static String of(JsonNode root, Path dir) throws IOException {
        ObjectNode out = JSON.createObjectNode();
        ArrayNode charts = out.putArray("charts");
        List<String> scenarios = ReportContent.names(root.path("experiment").path("scenarios"));
        for (int i = 0; i < scenarios.size(); i++) {
            List<JsonNode> ok = ReportContent.ok(root, scenarios.get(i)).stream().filter(r -> !r.has("step")).toList();
            String id = "s" + i;
            String s = scenarios.get(i);
            overTime(charts, id + "-throughput", s + ": throughput", "responses/s", ok, "rps", null);
            overTime(charts, id + "-latency", s + ": latency p50 and p99 per second", "ms", ok, "p99", "p50");
            percentiles(charts.addObject(), id + "-percentiles", s + ": latency percentile distribution", ok, dir);
            overTime(charts, id + "-cpu", s + ": target CPU (100 = one core)", "%", ok, "cpu_pct", null);
            overTime(charts, id + "-rss", s + ": target resident memory", "MB", ok, "rss_mb", null);
            overTime(charts, id + "-threads", s + ": target OS threads", "threads", ok, "threads", null);
            overTime(charts, id + "-fds", s + ": target open files", "open files", ok, "fds", null);
            List<JsonNode> warm = ReportContent.warmedUp(root, s);
            if (!warm.isEmpty()) {
                warmup(charts, id + "-warmup", s + ": warmup, throughput from the first request to steady state", "responses/s", warm, "rps");
                warmup(charts, id + "-warmup-jit", s + ": warmup, JIT compile time per second", "ms compiling", warm, "jit_ms");
            }
        }
        if (root.has("capacity")) {
            capacity(charts.addObject(), root.path("capacity"));
        }
        return JSON.writeValueAsString(out);
    }

    private static void overTime(ArrayNode charts, String id, String title, String yName, List<JsonNode> results, String field, String second) {
        ObjectNode c = chart(charts.addObject(), id, title, "time", "s", yName);
        ArrayNode series = c.putArray("series");
        for (JsonNode r : results) {
            String name = label(r, results);
            line(series, second == null ? name : name + " " + field, r.path("series"), field);
            if (second != null) {
                line(series, name + " " + second, r.path("series"), second);
            }
        }
        ArrayNode bands = c.putArray("bands");
        if (!results.isEmpty()) {
            for (JsonNode p : results.get(0).path("phases")) {
                if (p.path("from_s").asDouble() >= 0) {
                    bands.addObject().put("name", p.path("name").asText()).put("from", p.path("from_s").asDouble()).put("to", p.path("to_s").asDouble());
                }
            }
        }
    }

    /** One line per result over its steady_state.series, marked at the second the rule held. */
    private static void warmup(ArrayNode charts, String id, String title, String yName, List<JsonNode> results, String field) {
        ArrayNode series = chart(charts.addObject(), id, title, "time", "s since the first warmup request", yName).putArray("series");
        for (JsonNode r : results) {
            JsonNode ss = r.path("steady_state");
            ObjectNode line = line(series, label(r, results), ss.path("series"), field);
            if (ss.path("seconds").isNumber()) {
                line.put("mark", ss.path("seconds").asDouble());
            }
        }
    }

    private static ObjectNode line(ArrayNode series, String name, JsonNode rows, String field) {
        ObjectNode s = series.addObject().put("name", name);
        ArrayNode data = s.putArray("data");
        for (JsonNode row : rows) {
            if (row.path(field).isNumber()) {
                data.addArray().add(row.path("t").asDouble()).add(row.path(field).asDouble());
            }
        }
        return s;
    }

    private static void percentiles(ObjectNode c, String id, String title, List<JsonNode> results, Path dir) throws IOException {
        chart(c, id, title, "percentile", "percentile", "ms (log)");
        ArrayNode series = c.putArray("series");
        for (JsonNode r : results) {
            Histogram h = readHlog(dir.resolve(r.path("hlog").asText()));
            if (h == null || h.getTotalCount() == 0) {
                continue;
            }
            ArrayNode data = series.addObject().put("name", label(r, results)).putArray("data");
            // Beyond log10(count) nines there is less than one sample per step: stop at the max.
            double maxNines = Math.log10(h.getTotalCount());
            for (double x = 0; x <= maxNines + 1e-9; x += NINES_STEP) {
                double p = 100 * (1 - Math.pow(10, -x));
                data.addArray().add(round(x)).add(Math.max(0.001, h.getValueAtPercentile(p) / 1e6));
            }
            data.addArray().add(round(maxNines)).add(Math.max(0.001, h.getMaxValue() / 1e6));
        }
    }

    private static void capacity(ObjectNode c, JsonNode capacity) {
        chart(c, "capacity", "Latency vs offered rate (capacity steps)", "capacity", "offered requests/s", "p99 ms");
        ArrayNode series = c.putArray("series");
        for (JsonNode cap : capacity) {
            String search = repeated(capacity) ? " search " + cap.path("repeat").asInt(1) : "";
            ArrayNode data = series.addObject().put("name", cap.path("target").asText() + " " + cap.path("scenario").asText() + search).putArray("data");
            cap.path("steps").forEach(s -> {
                if (s.path("p99").isNumber()) {
                    data.addArray().add(s.path("offered_rps").asDouble()).add(s.path("p99").asDouble());
                }
            });
            // Sorted by rate, so the curve reads left to right although the search jumped around.
            List<JsonNode> points = new ArrayList<>();
            data.forEach(points::add);
            points.sort(Comparator.comparingDouble(p -> p.get(0).asDouble()));
            data.removeAll();
            points.forEach(data::add);
        }
    }

    /** Whether some target x scenario was searched more than once: then every curve names its search. */
    private static boolean repeated(JsonNode capacity) {
        for (JsonNode cap : capacity) {
            if (cap.path("repeat").asInt(1) > 1) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode chart(ObjectNode c, String id, String title, String kind, String xName, String yName) {
        return c.put("id", id).put("title", title).put("kind", kind).put("xName", xName).put("yName", yName);
    }

    /** Repeats of one target are told apart by number. */
    private static String label(JsonNode r, List<JsonNode> all) {
        boolean repeated = all.stream().anyMatch(x -> x.path("repeat").asInt(1) > 1);
        return r.path("target").asText() + (repeated ? " #" + r.path("repeat").asInt(1) : "");
    }

    private static Histogram readHlog(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        Histogram total = null;
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                if (total == null) {
                    total = new Histogram(((Histogram) h).getNumberOfSignificantValueDigits());
                }
                total.add((Histogram) h);
            }
        } catch (FileNotFoundException e) {
            return null;
        }
        return total;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
