package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.result.PhaseStats;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SteadyState;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
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

    /** Every chart of the run that has a point to draw. */
    static ObjectNode of(RunRecord root, Path dir) throws IOException {
        ObjectNode out = JSON.createObjectNode();
        ArrayNode charts = out.putArray("charts");
        if (root.summaries().sweep() != null) {
            // A sweep's report shows its map, not a chart over time per cell.
            SweepCharts.add(charts, root.summaries().sweep());
            return out;
        }
        // In rounds a result's series has one row per block, its t the round.
        String x = ReportContent.inRounds(root) ? "round" : "s";
        List<String> scenarios = ReportContent.scenarios(root);
        for (int i = 0; i < scenarios.size(); i++) {
            List<Result> ok = ReportContent.ok(root, scenarios.get(i)).stream().filter(r -> r.key().step() == null).toList();
            String id = "s" + i;
            String s = scenarios.get(i);
            overTime(charts, id + "-throughput", s + ": throughput", x, "responses/s", ok, ChartColumn.of("rps", row -> row.load().rps()));
            if (ReportContent.inRounds(root)) {
                RoundsJit.chart(charts, id + "-jit", s, root);
            }
            overTime(charts, id + "-latency", s + ": latency p50 and p99 per " + ("s".equals(x) ? "second" : x), x, "ms", ok, ChartColumn.of("p99", row -> row.load().p99()),
                    ChartColumn.of("p50", row -> row.load().p50()));
            percentiles(charts.addObject(), id + "-percentiles", s + ": latency percentile distribution", ok, dir);
            // A target that died keeps its resources up to its death: how it ran out is what its user came to see.
            List<Result> resources = new ArrayList<>(ok);
            resources.addAll(ReportContent.died(root, s));
            overTime(charts, id + "-cpu", s + ": target CPU (100 = one core)", x, "%", resources, ChartColumn.of("cpu_pct", row -> row.target().cpuPct()));
            overTime(charts, id + "-rss", s + ": target resident memory", x, "MB", resources, ChartColumn.of("rss_mb", row -> row.target().rssMb()));
            overTime(charts, id + "-threads", s + ": target OS threads", x, "threads", resources, ChartColumn.of("threads", row -> row.target().threads()));
            overTime(charts, id + "-fds", s + ": target open files", x, "open files", resources, ChartColumn.of("fds", row -> row.target().fds()));
            FlameGraphs.add(charts, id, s, ok, Findings.pairs(root, s), dir);
            List<Result> warm = ReportContent.warmedUp(root, s);
            if (!warm.isEmpty()) {
                warmup(charts, id + "-warmup", s + ": warmup, throughput from the first request to steady state", "responses/s", warm,
                        SteadyState.WarmupSecond::rps);
                warmup(charts, id + "-warmup-jit", s + ": warmup, JIT compile time per second", "ms compiling", warm, SteadyState.WarmupSecond::jitMs);
            }
        }
        if (root.summaries().capacity() != null) {
            capacity(charts.addObject(), root.summaries().capacity());
        }
        dropEmpty(charts);
        return out;
    }

    /** The ids of the charts there are. */
    static Set<String> ids(ObjectNode charts) {
        Set<String> ids = new HashSet<>();
        charts.path("charts").forEach(c -> ids.add(c.path("id").asText()));
        return ids;
    }

    static String json(ObjectNode charts) throws IOException {
        return JSON.writeValueAsString(charts);
    }

    /**
     * A chart none of whose lines has a point would draw its axes and nothing else: it is left out. The paired
     * design's series, per block, carry no threads or open files; results without .hlog files have no percentiles.
     */
    private static void dropEmpty(ArrayNode charts) {
        for (int i = charts.size() - 1; i >= 0; i--) {
            int points = 0;
            for (JsonNode line : charts.get(i).path("series")) {
                points += line.path("data").size();
            }
            if (points == 0) {
                charts.remove(i);
            }
        }
    }

    /** A column of the per-second series, named as a line's suffix when a chart has two. */
    private record ChartColumn(String name, Function<Result.PerSecond, Number> value) {
        static ChartColumn of(String name, Function<Result.PerSecond, Number> value) {
            return new ChartColumn(name, value);
        }
    }

    private static void overTime(ArrayNode charts, String id, String title, String xName, String yName, List<Result> results, ChartColumn... columns) {
        ObjectNode c = chart(charts.addObject(), id, title, "time", xName, yName);
        ArrayNode series = c.putArray("series");
        for (Result r : results) {
            String name = label(r, results);
            for (ChartColumn column : columns) {
                line(series, columns.length == 1 ? name : name + " " + column.name(), r.telemetry().series(), row -> row.t(), column.value());
            }
        }
        ArrayNode bands = c.putArray("bands");
        if (!results.isEmpty() && results.get(0).telemetry().phases() != null) {
            for (PhaseStats p : results.get(0).telemetry().phases()) {
                if (p.fromS() >= 0) {
                    bands.addObject().put("name", p.name()).put("from", p.fromS()).put("to", p.toS());
                }
            }
        }
    }

    /** One line per result over its steady_state.series, marked at the second the rule held. */
    private static void warmup(ArrayNode charts, String id, String title, String yName, List<Result> results,
                               Function<SteadyState.WarmupSecond, Number> field) {
        ArrayNode series = chart(charts.addObject(), id, title, "time", "s since the first warmup request", yName).putArray("series");
        for (Result r : results) {
            SteadyState ss = r.checks().steadyState();
            ObjectNode line = line(series, label(r, results), ss.series(), SteadyState.WarmupSecond::t, field);
            if (ss.seconds() != null) {
                line.put("mark", ss.seconds().doubleValue());
            }
        }
    }

    private static <T> ObjectNode line(ArrayNode series, String name, List<T> rows, Function<T, Integer> t, Function<T, Number> field) {
        ObjectNode s = series.addObject().put("name", name);
        ArrayNode data = s.putArray("data");
        for (T row : rows == null ? List.<T>of() : rows) {
            Number v = field.apply(row);
            if (v != null) {
                data.addArray().add(t.apply(row).doubleValue()).add(v.doubleValue());
            }
        }
        return s;
    }

    private static void percentiles(ObjectNode c, String id, String title, List<Result> results, Path dir) throws IOException {
        chart(c, id, title, "percentile", "percentile", "ms (log)");
        ArrayNode series = c.putArray("series");
        for (Result r : results) {
            Histogram h = r.files().hlog() == null ? null : readHlog(dir.resolve(r.files().hlog()));
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

    private static void capacity(ObjectNode c, List<CapacitySearchResult> capacity) {
        chart(c, "capacity", "Latency vs offered rate (capacity steps)", "capacity", "offered requests/s", "p99 ms");
        ArrayNode series = c.putArray("series");
        // Whether some target x scenario was searched more than once: then every curve names its search.
        boolean repeated = capacity.stream().anyMatch(cap -> cap.repeat() > 1);
        for (CapacitySearchResult cap : capacity) {
            String search = repeated ? " search " + cap.repeat() : "";
            ArrayNode data = series.addObject().put("name", cap.target() + " " + cap.scenario() + search).putArray("data");
            // Sorted by rate, so the curve reads left to right although the search jumped around.
            cap.steps().stream().filter(s -> s.p99() != null).sorted(Comparator.comparingInt(CapacitySearchResult.Step::offeredRps))
                    .forEach(s -> data.addArray().add((double) s.offeredRps()).add(s.p99()));
        }
    }

    static ObjectNode chart(ObjectNode c, String id, String title, String kind, String xName, String yName) {
        return c.put("id", id).put("title", title).put("kind", kind).put("xName", xName).put("yName", yName);
    }

    /** Repeats of one target are told apart by number. */
    private static String label(Result r, List<Result> all) {
        boolean repeated = all.stream().anyMatch(x -> x.jvm() > 1);
        return r.target() + (repeated ? " #" + r.jvm() : "") + (r.ok() ? "" : " (until it died; s from its first request)");
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
