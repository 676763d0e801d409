package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What a report says, in order, independent of its format: the sections seed 000 wrote by hand
 * (summary, configuration, response times, throughput, reliability, resources per phase, JVM),
 * plus config parity, caveats, time to steady state, repeats and capacity when the run has them.
 */
final class ReportContent {
    private ReportContent() {
    }

    static List<Section> of(JsonNode root) {
        List<Section> out = new ArrayList<>();
        List<String> scenarios = names(root.path("experiment").path("scenarios"));
        boolean repeated = root.path("experiment").path("repeat").asInt(1) > 1;
        List<String> summary = new ArrayList<>();
        for (String s : scenarios) {
            summary.addAll(Findings.summary(root, s, ok(root, s)));
        }
        boolean verdicts = repeated && !root.path("summary").path("verdicts").isEmpty();
        out.add(new Section("Executive summary", summary, verdicts ? List.of(Findings.verdictTable(root)) : List.of(), List.of()));
        List<String> caveats = Findings.caveats(root);
        out.add(new Section("Caveats", caveats.isEmpty() ? List.of("None detected.") : caveats, List.of(), List.of()));
        out.add(new Section("Test configuration", List.of(), List.of(configuration(root)), List.of()));
        for (int i = 0; i < scenarios.size(); i++) {
            String s = scenarios.get(i);
            List<JsonNode> all = all(root, s);
            String id = "s" + i;
            List<String> charts = new ArrayList<>(List.of(id + "-throughput", id + "-latency", id + "-percentiles", id + "-cpu", id + "-rss",
                    id + "-threads", id + "-fds"));
            if (!warmedUp(root, s).isEmpty()) {
                charts.addAll(List.of(id + "-warmup", id + "-warmup-jit"));
            }
            out.add(new Section("Scenario " + s, List.of(),
                    List.of(latency(all, repeated), throughput(all, repeated), phases(all, repeated), jvm(all, repeated)), charts));
        }
        Table steady = steadyState(root, repeated);
        if (!steady.rows().isEmpty()) {
            boolean staged = false;
            for (JsonNode r : root.path("results")) {
                staged |= r.path("steady_state").path("compile_stage_s").asInt() > 0;
            }
            out.add(new Section("Steady state", List.of((staged ? "Each warmup started with a compile stage, 2 users until the target's "
                    + "JIT had been quiet for 5 s (on one CPU, many busy request threads starve the compiler threads); then e" : "E")
                    + "ach target x scenario ran under the profile's load until throughput, median latency, the JIT and the machine's "
                    + "speed had stopped changing over a window, or until the warmup budget ran out, and was measured after that. "
                    + (staged ? "Seconds to steady count from the first request, the compile stage included. " : "")
                    + "Drift compares the last third of the measured window with its first third."), List.of(steady), List.of()));
        }
        out.add(new Section("Config parity", List.of("Read back from each running target's GET /config."), List.of(parity(root)), List.of()));
        if (repeated) {
            out.add(repeats(root));
        }
        if (root.has("capacity")) {
            out.add(capacity(root));
        }
        return out;
    }

    static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.path("name").asText()));
        return out;
    }

    static List<JsonNode> all(JsonNode root, String scenario) {
        List<JsonNode> out = new ArrayList<>();
        root.path("results").forEach(r -> {
            if (r.path("scenario").asText().equals(scenario)) {
                out.add(r);
            }
        });
        return out;
    }

    static List<JsonNode> ok(JsonNode root, String scenario) {
        return all(root, scenario).stream().filter(r -> r.path("status").asText().equals("ok")).toList();
    }

    /** Results with a warmup series to chart; capacity steps are left out as in every chart over time. */
    static List<JsonNode> warmedUp(JsonNode root, String scenario) {
        return ok(root, scenario).stream().filter(r -> !r.has("step") && !r.path("steady_state").path("series").isEmpty()).toList();
    }

    private static Table configuration(JsonNode root) {
        JsonNode env = root.path("environment");
        JsonNode exp = root.path("experiment");
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("run", root.path("run_id").asText() + " (" + root.path("status").asText() + ")"));
        rows.add(List.of("started / finished", root.path("started_at").asText() + " / " + root.path("finished_at").asText()));
        rows.add(List.of("experiment", exp.path("name").asText()));
        List<String> targets = new ArrayList<>();
        exp.path("targets").forEach(t -> targets.add(t.path("name").asText() + (t.has("limits") ? " (own limits: " + readable(t.path("limits")) + ")" : "")));
        rows.add(List.of("targets", String.join(", ", targets)));
        rows.add(List.of("profile", readable(exp.path("profile"))));
        rows.add(List.of("warmup / cooldown / repeat", Cells.num(exp.path("warmup_s")) + " s / " + Cells.num(exp.path("cooldown_s")) + " s / "
                + exp.path("repeat").asInt(1)));
        rows.add(List.of("JVM flags (every target)", String.join(" ", texts(exp.path("jvm_flags")))));
        if (exp.has("limits")) {
            // cpus and memory are every target's (absent when only some targets have their own, shown with the targets).
            rows.add(List.of("limits", readable(exp.path("limits"))));
        }
        rows.add(List.of("machine", env.path("os").asText() + ", " + env.path("cpus").asText() + " CPUs (" + env.path("cpu_model").asText() + "), "
                + env.path("memory_mb").asText() + " MB"));
        rows.add(List.of("pinning", readable(env.path("pinning"))));
        rows.add(List.of("JDK", "targets " + env.path("jdk").path("targets").asText() + ", lab " + env.path("jdk").path("lab").asText()));
        rows.add(List.of("database", env.path("database").isNull() ? "-" : env.path("database").asText()));
        rows.add(List.of("versions", readable(env.path("versions"))));
        rows.add(List.of("git commit", env.path("git_commit").asText() + (env.path("git_dirty").asBoolean() ? " (uncommitted changes)" : "")));
        return new Table("", List.of("setting", "value"), rows);
    }

    /** An object as "key value, key value" (nested objects in parentheses), for a table cell a person reads. */
    static String readable(JsonNode node) {
        if (node.isObject()) {
            List<String> parts = new ArrayList<>();
            node.fields().forEachRemaining(e -> {
                if (e.getValue().isNull()) {
                    return; // not set, e.g. a limit that only some targets have
                }
                String key = e.getKey();
                String unit = key.endsWith("_ms") ? " ms" : key.endsWith("_s") ? " s" : "";
                key = key.substring(0, key.length() - unit.length()).replace('_', ' ');
                JsonNode value = e.getValue();
                parts.add(key + " " + (value.isContainerNode() ? "(" + readable(value) + ")" : readable(value) + unit));
            });
            return String.join(", ", parts);
        }
        if (node.isArray()) {
            List<String> parts = new ArrayList<>();
            node.forEach(n -> parts.add(readable(n)));
            return String.join(", ", parts);
        }
        if (node.isBoolean()) {
            return node.asBoolean() ? "yes" : "no";
        }
        return node.isNumber() ? Cells.num(node) : node.asText();
    }

    private static List<String> who(JsonNode r, boolean repeated) {
        List<String> cells = new ArrayList<>();
        cells.add(r.path("target").asText());
        if (repeated) {
            cells.add(r.path("repeat").asText("1"));
        }
        return cells;
    }

    private static List<String> header(boolean repeated, String... rest) {
        List<String> h = new ArrayList<>(List.of("target"));
        if (repeated) {
            h.add("repeat");
        }
        h.addAll(List.of(rest));
        return h;
    }

    private static Table latency(List<JsonNode> results, boolean repeated) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : results) {
            List<String> row = who(r, repeated);
            if (!r.path("status").asText().equals("ok")) {
                row.addAll(List.of("failed", "", "", "", "", "", ""));
            } else {
                JsonNode l = r.path("latency_ms");
                for (String k : List.of("mean", "p50", "p90", "p95", "p99", "p999", "max")) {
                    row.add(Cells.num(l.path(k)));
                }
            }
            rows.add(row);
        }
        return new Table("Response time (ms)", header(repeated, "avg", "p50", "p90", "p95", "p99", "p99.9", "max"), rows);
    }

    private static Table throughput(List<JsonNode> results, boolean repeated) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : results) {
            List<String> row = who(r, repeated);
            if (!r.path("status").asText().equals("ok")) {
                row.addAll(List.of("failed", "", "", "", "", "", "", "", ""));
            } else {
                JsonNode e = r.path("errors");
                row.addAll(List.of(Cells.num(r.path("throughput_rps")), Cells.num(r.path("requests")), Cells.num(e.path("total")),
                        Cells.num(e.path("connect")), Cells.num(e.path("timeout")), Cells.num(e.path("4xx")), Cells.num(e.path("5xx")),
                        Cells.num(e.path("other")), Cells.num(r.path("driver").path("cpu_pct_mean"))));
            }
            rows.add(row);
        }
        return new Table("Throughput and reliability", header(repeated, "rps", "requests", "errors", "connect", "timeout", "4xx", "5xx",
                "other", "driver CPU %"), rows);
    }

    private static Table phases(List<JsonNode> results, boolean repeated) {
        boolean limited = results.stream().anyMatch(r -> r.path("phases").findValue("limits") != null);
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : results) {
            for (JsonNode p : r.path("phases")) {
                List<String> row = who(r, repeated);
                JsonNode t = p.path("target");
                row.addAll(List.of(p.path("name").asText(), Cells.num(p.path("from_s")) + " to " + Cells.num(p.path("to_s")),
                        Cells.range(t.path("cpu_pct")) + " (mean " + Cells.num(t.path("cpu_pct").path("mean")) + ")",
                        Cells.range(t.path("rss_mb")), Cells.range(t.path("threads")), Cells.range(t.path("fds")),
                        Cells.num(p.path("stub").path("cpu_pct").path("mean")), Cells.num(p.path("db").path("cpu_pct").path("mean"))));
                if (limited) {
                    JsonNode l = p.path("limits");
                    row.addAll(List.of(Cells.num(l.path("throttled_pct")), Cells.num(l.path("memory_max_mb"))));
                }
                rows.add(row);
            }
        }
        List<String> columns = new ArrayList<>(List.of("phase", "s", "CPU %", "RSS MB", "threads", "open files", "stub CPU %", "DB CPU %"));
        if (limited) {
            columns.addAll(List.of("throttled % of periods", "cgroup memory max MB"));
        }
        return new Table("Target resources per phase (CPU: 100 = one core; s relative to the measured load)",
                header(repeated, columns.toArray(String[]::new)), rows);
    }

    private static Table jvm(List<JsonNode> results, boolean repeated) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : results) {
            JsonNode j = r.path("jvm");
            if (j.isMissingNode()) {
                continue;
            }
            List<String> row = who(r, repeated);
            if (!j.path("available").asBoolean()) {
                row.addAll(List.of("-", "-", "-", "-", "-", "-", "-", "unavailable: " + j.path("note").asText()));
            } else {
                JsonNode top = j.path("pinned_top_frames").path(0);
                String pinning = j.path("pinning_note").isTextual() ? j.path("pinning_note").asText()
                        : j.path("pinned_events").asLong() + (top.isMissingNode() ? "" : ", top: " + top.path("frame").asText() + " x" + top.path("count").asText());
                row.addAll(List.of(Cells.num(j.path("gc_pauses")), Cells.num(j.path("gc_pause_total_ms")), Cells.num(j.path("gc_pause_max_ms")),
                        Cells.num(j.path("heap_after_gc_peak_mb")), Cells.num(j.path("alloc_rate_mb_s")), Cells.num(j.path("peak_platform_threads")),
                        j.path("virtual_threads").asBoolean() ? "yes" : "no", pinning));
            }
            rows.add(row);
        }
        return new Table("JVM internals over the measured window (JFR)", header(repeated, "GC pauses", "GC total ms", "GC max ms",
                "heap after GC MB", "alloc MB/s", "platform threads", "virtual threads", "pinning"), rows);
    }

    private static Table steadyState(JsonNode root, boolean repeated) {
        boolean steps = false;
        for (JsonNode r : root.path("results")) {
            steps |= r.has("step");
        }
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : root.path("results")) {
            JsonNode ss = r.path("steady_state");
            if (ss.isMissingNode()) {
                continue;
            }
            List<String> row = new ArrayList<>(List.of(r.path("target").asText(), r.path("scenario").asText()));
            if (repeated) {
                row.add(r.path("repeat").asText("1"));
            }
            if (steps) {
                row.add(r.path("step").asText("-"));
            }
            boolean reached = ss.path("reached").asBoolean();
            JsonNode drift = ss.path("drift");
            int compiled = ss.path("compile_stage_s").asInt();
            String stage = compiled > 0 ? " (" + compiled + " of them at " + ss.path("compile_stage_users").asInt() + " users)" : "";
            row.addAll(List.of(reached ? "yes" : "no", (reached ? Cells.num(ss.path("seconds")) : "not within " + Cells.num(ss.path("budget_s")) + " s") + stage,
                    jit(ss.path("jit").path("warmup"), 1000), jit(ss.path("jit").path("measured"), 1),
                    !drift.path("rps_change_pct").isNumber() ? "-" : Cells.pct(drift.path("rps_change_pct").asDouble())
                            + (drift.path("drifting").asBoolean() ? ", drifting" : "")));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("target", "scenario"));
        if (repeated) {
            header.add("repeat");
        }
        if (steps) {
            header.add("step");
        }
        header.addAll(List.of("reached", "s to steady", "JIT during warmup s", "JIT while measured ms", "throughput drift (last vs first third)"));
        return new Table("", header, rows);
    }

    /** Compile time in {@code perUnit} ms and the number of compilations; "-" when the JVM published no counters. */
    private static String jit(JsonNode j, double perUnit) {
        if (!j.path("compile_ms").isNumber()) {
            return "-";
        }
        return Cells.num(DoubleNode.valueOf(j.path("compile_ms").asDouble() / perUnit)) + " (" + j.path("compiles").asText() + " compiles)";
    }

    private static Table parity(JsonNode root) {
        List<List<String>> rows = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (JsonNode r : root.path("results")) {
            String target = r.path("target").asText();
            if (seen.contains(target) || !r.path("status").asText().equals("ok")) {
                continue;
            }
            seen.add(target);
            JsonNode c = r.path("target_config");
            JsonNode server = c.path("server");
            String threads = server.has("event_loops") ? server.path("event_loops").asText() + " event loops"
                    : server.has("threads_max") ? server.path("threads_max").asText() + " max threads" : "-";
            rows.add(List.of(target, server.path("engine").asText("-"), threads, server.path("virtual_threads").asText("-"),
                    c.path("http_client").path("library").asText("-") + " " + c.path("http_client").path("max_connections").asText(""),
                    c.path("db_pool").path("library").asText("-") + " " + c.path("db_pool").path("max_size").asText(""),
                    c.path("jvm").path("heap_max_mb").asText("-"), r.path("target_cpus").asText("-") + " (JVM sees "
                            + c.path("jvm").path("available_processors").asText("?") + ")", c.path("jvm").path("jdk").asText("-")));
        }
        return new Table("", List.of("target", "server", "threads / loops", "virtual threads", "HTTP client pool", "DB pool", "heap MB", "CPUs",
                "JDK"), rows);
    }

    private static Section repeats(JsonNode root) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode e : root.path("summary").path("estimates")) {
            rows.add(List.of(e.path("target").asText(), e.path("scenario").asText(), e.path("metric").asText(), e.path("n").asText(),
                    Cells.num(e.path("median")), Cells.num(e.path("ci_low")) + " - " + Cells.num(e.path("ci_high")),
                    Cells.num(e.path("min")) + " - " + Cells.num(e.path("max"))));
        }
        List<String> verdicts = new ArrayList<>();
        verdicts.add("Method: " + root.path("summary").path("method").asText());
        for (JsonNode v : root.path("summary").path("verdicts")) {
            verdicts.add("- " + v.path("scenario").asText() + " " + v.path("metric").asText() + ", " + v.path("a").asText() + " vs "
                    + v.path("b").asText() + ": " + v.path("text").asText());
        }
        return new Section("Repeats: medians, 95% confidence intervals and verdicts", verdicts,
                List.of(new Table("", List.of("target", "scenario", "metric", "n", "median", "95% CI", "min - max"), rows)), List.of());
    }

    private static Section capacity(JsonNode root) {
        boolean repeated = root.path("experiment").path("repeat").asInt(1) > 1;
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode c : root.path("capacity")) {
            List<String> steps = new ArrayList<>();
            c.path("steps").forEach(s -> steps.add(s.path("offered_rps").asText() + (s.path("slo_met").asBoolean() ? " ok" : " miss")));
            List<String> row = new ArrayList<>(List.of(c.path("target").asText(), c.path("scenario").asText()));
            if (repeated) {
                row.add(c.path("repeat").asText());
            }
            row.addAll(List.of(c.path("capacity_rps").asText() + (c.path("reached_max").asBoolean() ? " (limit of the search)" : ""),
                    c.path("slo").asText(), String.join(", ", steps)));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("target", "scenario"));
        if (repeated) {
            header.add("search");
        }
        header.addAll(List.of("capacity rps", "SLO", "steps (rps)"));
        List<Table> tables = new ArrayList<>();
        List<List<String>> medians = new ArrayList<>();
        for (JsonNode m : root.path("capacity_summary")) {
            medians.add(List.of(m.path("target").asText(), m.path("scenario").asText(), m.path("n").asText(), Cells.num(m.path("median_rps")),
                    Cells.num(m.path("min_rps")) + " - " + Cells.num(m.path("max_rps")), Cells.num(m.path("spread_pct")) + "%", m.path("slo").asText()));
        }
        if (!medians.isEmpty()) {
            tables.add(new Table("Median over searches", List.of("target", "scenario", "searches", "median rps", "min - max", "spread", "SLO"), medians));
        }
        tables.add(new Table(repeated ? "Every search" : "", header, rows));
        return new Section("Capacity at the SLO", List.of("The highest offered rate (open model) whose step met the SLO; "
                + "every step had its own warmup" + (repeated ? ", every search its own fresh JVM; spread = (max - min) / median." : ".")),
                tables, List.of("capacity"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
