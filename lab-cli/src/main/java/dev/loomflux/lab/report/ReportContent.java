package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.DriverCheck;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.result.JvmFacts;
import dev.loomflux.lab.result.PhaseStats;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.result.SteadyState;
import dev.loomflux.lab.result.SweepMap;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.targets.TargetConfig;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a report says, in order, independent of its format: the sections seed 000 wrote by hand
 * (summary, configuration, response times, throughput, reliability, resources per phase, JVM),
 * plus config parity, caveats, time to steady state, repeats and capacity when the run has them.
 */
final class ReportContent {
    private ReportContent() {
    }

    static List<Section> of(RunRecord root) {
        if (root.sweep() != null) {
            return sweep(root);
        }
        List<Section> out = new ArrayList<>();
        List<String> scenarios = scenarios(root);
        boolean repeated = root.jvmsPerTarget() > 1;
        String jvms = jvms(root);
        List<Paragraph> summary = new ArrayList<>();
        for (String s : scenarios) {
            summary.addAll(Findings.summary(root, s, ok(root, s)));
        }
        boolean verdicts = repeated && root.summary() != null && !root.summary().verdicts().isEmpty();
        out.add(new Section("Executive summary", summary, verdicts ? List.of(Findings.verdictTable(root)) : List.of(), List.of()));
        out.add(caveats(root));
        out.add(new Section("Test configuration", List.of(), List.of(configuration(root)), List.of()));
        for (int i = 0; i < scenarios.size(); i++) {
            String s = scenarios.get(i);
            List<Result> all = all(root, s);
            String id = "s" + i;
            List<String> charts = new ArrayList<>(List.of(id + "-throughput", id + "-latency", id + "-percentiles", id + "-cpu", id + "-rss",
                    id + "-threads", id + "-fds"));
            if (!warmedUp(root, s).isEmpty()) {
                charts.addAll(List.of(id + "-warmup", id + "-warmup-jit"));
            }
            out.add(new Section("Scenario " + s, List.of(),
                    List.of(latency(all, jvms), throughput(all, jvms), agents(all, jvms), phases(all, jvms), jvm(all, jvms)), charts));
        }
        Table steady = steadyState(root, jvms);
        if (!steady.rows().isEmpty()) {
            boolean staged = root.results().stream().anyMatch(r -> r.checks().steadyState() != null && r.checks().steadyState().compileStage() > 0);
            out.add(new Section("Steady state", List.of(Paragraph.plain((staged ? "Each warmup started with a compile stage, 2 users until the target's "
                    + "JIT had been quiet for 5 s (on one CPU, many busy request threads starve the compiler threads); then e" : "E")
                    + "ach target x scenario ran under the profile's load until throughput, median latency, the JIT and the machine's "
                    + "speed had stopped changing over a window, or until the warmup budget ran out, and was measured after that. "
                    + (staged ? "Seconds to steady count from the first request, the compile stage included. " : "")
                    + "Drift compares the last third of the measured window with its first third.")), List.of(steady), List.of()));
        }
        out.add(new Section("Config parity", List.of(Paragraph.plain("Read back from each running target's GET /config.")), List.of(parity(root)), List.of()));
        if (repeated) {
            out.add(repeats(root));
        }
        if (root.capacity() != null) {
            out.add(capacity(root));
        }
        return out;
    }

    private static Section caveats(RunRecord root) {
        List<Paragraph> caveats = Findings.caveats(root);
        return new Section("Caveats", caveats.isEmpty() ? List.of(Paragraph.plain("None detected.")) : caveats, List.of(), List.of());
    }

    /**
     * A sweep: the map first (per scenario and metric who wins where, the crossovers in words), then
     * every cell's medians, the configuration, steady state and parity; no section per cell.
     */
    private static List<Section> sweep(RunRecord root) {
        SweepMap map = root.sweep();
        List<Section> out = new ArrayList<>();
        out.add(new Section("Executive summary", Findings.sweepSummary(root), List.of(), List.of()));
        out.add(caveats(root));
        out.add(new Section("Test configuration", List.of(), List.of(configuration(root)), List.of()));
        List<String> scenarios = map.cells().stream().map(SweepMap.Cell::scenario).distinct().toList();
        for (int i = 0; i < scenarios.size(); i++) {
            String s = scenarios.get(i);
            List<SweepMap.Cell> cells = map.cells().stream().filter(c -> c.scenario().equals(s)).toList();
            List<Table> tables = new ArrayList<>();
            for (Metric m : Metric.SWEPT) {
                tables.add(winners(map, cells, m));
            }
            tables.add(figures(map, cells));
            out.add(new Section("Where each model wins: " + s, List.of(Paragraph.plain("Each cell names the target with the best median and how far it is "
                    + "ahead of the next one when that is clear: ahead of every other target by at least " + Stats.MIN_EFFECT_PCT + "% with 95% confidence, "
                    + "every result of the cell steady "
                    + "(" + map.method() + ").")), tables, SweepCharts.ids(map, i)));
        }
        Table steady = steadyState(root, jvms(root));
        if (!steady.rows().isEmpty()) {
            out.add(new Section("Steady state", List.of(Paragraph.plain("Every cell was measured after its load was steady; the first cell of "
                    + "each target JVM warmed it from cold.")), List.of(steady), List.of()));
        }
        out.add(new Section("Config parity", List.of(Paragraph.plain("Read back from each running target's GET /config.")), List.of(parity(root)), List.of()));
        return out;
    }

    /** One metric over the grid: the first axis across, the second down. */
    private static Table winners(SweepMap map, List<SweepMap.Cell> cells, Metric m) {
        SweepMap.AxisValues x = map.axes().get(0);
        SweepMap.AxisValues y = map.axes().size() > 1 ? map.axes().get(1) : null;
        List<String> header = new ArrayList<>(List.of(y == null ? "" : y.label() + " \\ " + x.label()));
        x.values().forEach(v -> header.add(v.toString()));
        List<List<String>> rows = new ArrayList<>();
        for (Integer yv : y == null ? java.util.Collections.<Integer>singletonList(null) : y.values()) {
            List<String> row = new ArrayList<>(List.of(yv == null ? m.words() : yv.toString()));
            for (int xv : x.values()) {
                SweepMap.Cell cell = cells.stream().filter(c -> Integer.valueOf(xv).equals(c.at().get(x.name()))
                        && (y == null || yv.equals(c.at().get(y.name())))).findFirst().orElse(null);
                row.add(cell == null ? "-" : Cells.label(cell, m.summaryName()));
            }
            rows.add(row);
        }
        return new Table(m.label() + (m.unit().isEmpty() ? "" : " (" + m.unit() + ")") + ": who wins where", header, rows);
    }

    /** Every cell's medians per target. */
    private static Table figures(SweepMap map, List<SweepMap.Cell> cells) {
        List<String> header = new ArrayList<>();
        map.axes().forEach(a -> header.add(a.label()));
        header.addAll(List.of("target", "n", "steady"));
        Metric.SWEPT.forEach(m -> header.add(m.label() + (m.unit().isEmpty() ? "" : " " + m.unit())));
        List<List<String>> rows = new ArrayList<>();
        for (SweepMap.Cell c : cells) {
            for (SweepMap.TargetFigures t : c.targets()) {
                List<String> row = new ArrayList<>();
                map.axes().forEach(a -> row.add(String.valueOf(c.at().get(a.name()))));
                row.addAll(List.of(t.target(), String.valueOf(t.n()), t.steady() ? "yes" : "no"));
                for (Metric m : Metric.SWEPT) {
                    SweepMap.Figure f = t.metrics().get(m.summaryName());
                    row.add(f == null ? "-" : Cells.num(f.median()) + (t.n() > 1 ? " (" + Cells.num(f.ciLow()) + "-" + Cells.num(f.ciHigh()) + ")" : ""));
                }
                rows.add(row);
            }
        }
        return new Table("Medians per cell" + (cells.stream().anyMatch(c -> c.targets().stream().anyMatch(t -> t.n() > 1)) ? " (95% CI)" : ""),
                header, rows);
    }

    static List<String> scenarios(RunRecord root) {
        return root.experiment().scenarios().stream().map(ExperimentDescription.ScenarioDescription::name).toList();
    }

    static List<Result> all(RunRecord root, String scenario) {
        return root.results().stream().filter(r -> r.scenario().equals(scenario)).toList();
    }

    static List<Result> ok(RunRecord root, String scenario) {
        return all(root, scenario).stream().filter(Result::ok).toList();
    }

    /** Targets that died under load, with what the sampler saw of them until then. */
    static List<Result> died(RunRecord root, String scenario) {
        return all(root, scenario).stream().filter(r -> !r.ok() && r.telemetry().series() != null && !r.telemetry().series().isEmpty()).toList();
    }

    /** Results with a warmup series to chart; capacity steps are left out as in every chart over time. */
    static List<Result> warmedUp(RunRecord root, String scenario) {
        return ok(root, scenario).stream().filter(r -> r.key().step() == null && r.checks().steadyState() != null && !r.checks().steadyState().series().isEmpty()).toList();
    }

    private static Table configuration(RunRecord root) {
        Environment env = root.environment();
        ExperimentDescription exp = root.experiment();
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("run", root.runId() + " (" + root.status() + ")"));
        rows.add(List.of("started / finished", root.startedAt() + " / " + root.finishedAt()));
        rows.add(List.of("experiment", exp.name()));
        rows.add(List.of("targets", String.join(", ", exp.targets().stream()
                .map(t -> t.name() + (t.limits() != null ? " (own limits: " + readable(Json.tree(t.limits())) + ")" : "")).toList())));
        rows.add(List.of("profile", readable(Json.tree(exp.profile()))));
        rows.add(List.of("warmup / cooldown / repeat", Cells.num(exp.warmupS()) + " s / " + Cells.num(exp.cooldownS()) + " s / " + root.jvmsPerTarget()));
        if (exp.design() != null) {
            rows.add(List.of("design", "paired".equals(exp.design().kind())
                    ? "paired: " + exp.design().rounds() + " rounds of " + Cells.num(exp.design().blockS()) + " s blocks per target"
                    + (exp.design().leadInS() == null ? "" : " (each after " + Cells.num(exp.design().leadInS()) + " s of unmeasured load)") + " after "
                    + exp.design().leadInRounds() + " lead-in round (the profile's duration is not used)"
                    : "sequential"));
        }
        if (exp.driver() != null) {
            List<List<String>> perLoad = root.results().stream().filter(r -> r.checks().driver() != null && r.checks().driver().agents() != null)
                    .map(r -> r.checks().driver().agents().stream().map(DriverCheck.Agent::agent).toList()).toList();
            int agents = perLoad.stream().mapToInt(List::size).max().orElse(0);
            List<String> addresses = perLoad.stream().flatMap(List::stream).distinct().toList();
            rows.add(List.of("load driver", "jmeter".equals(exp.driver())
                    ? "Apache JMeter " + env.versions().getOrDefault("jmeter", "") + ", non-GUI, "
                    + (agents == 0 ? "one local process" : "a controller here and " + agents + " agents"
                    // The lab's own agents are started for each load, each time on new ports.
                    + (addresses.size() > agents ? " started on 127.0.0.1 for each load" : " (" + String.join(", ", addresses) + ")")
                    + ", RMI over SSL, users and rates split over them")
                    + " (latency in whole ms; a thread and connection per user, per arrival for a rate)"
                    : "Hyperfoil " + env.versions().getOrDefault("hyperfoil", "") + ", embedded in the lab"));
        }
        rows.add(List.of("JVM flags (every target)", String.join(" ", exp.jvmFlags())));
        if (exp.limits() != null) {
            // cpus and memory are every target's (absent when only some targets have their own, shown with the targets).
            rows.add(List.of("limits", readable(Json.tree(exp.limits()))));
        }
        rows.add(List.of("machine", env.os() + ", " + env.cpus() + " CPUs (" + env.cpuModel() + "), " + env.memoryMb() + " MB"));
        rows.add(List.of("pinning", readable(Json.tree(env.pinning()))));
        rows.add(List.of("JDK", "targets " + env.jdk().targets() + ", lab " + env.jdk().lab()));
        rows.add(List.of("database", env.database() == null ? "-" : env.database()));
        rows.add(List.of("versions", readable(Json.tree(env.versions()))));
        rows.add(List.of("git commit", env.gitCommit() + (Boolean.TRUE.equals(env.gitDirty()) ? " (uncommitted changes)" : "")));
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
        return node.isNumber() ? Cells.num(node.numberValue()) : node.asText();
    }

    /** The column that tells a target's JVMs apart: "set" in the paired design, "repeat" in the sequential one; null with one JVM each. */
    private static String jvms(RunRecord root) {
        return root.jvmsPerTarget() < 2 ? null : root.experiment() != null && root.experiment().paired() ? "set" : "repeat";
    }

    /** @param jvms the column that tells a target's JVMs apart, "set" or "repeat"; null with one JVM per target */
    private static List<String> who(Result r, String jvms) {
        List<String> cells = new ArrayList<>();
        cells.add(r.target());
        if (jvms != null) {
            cells.add(String.valueOf(r.jvm()));
        }
        return cells;
    }

    private static List<String> header(String jvms, String... rest) {
        List<String> h = new ArrayList<>(List.of("target"));
        if (jvms != null) {
            h.add(jvms);
        }
        h.addAll(List.of(rest));
        return h;
    }

    private static Table latency(List<Result> results, String jvms) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            List<String> row = who(r, jvms);
            if (!r.ok()) {
                row.addAll(List.of("failed", "", "", "", "", "", ""));
            } else {
                Result.Latency l = r.load().latencyMs();
                for (Double v : Arrays.asList(l.mean(), l.p50(), l.p90(), l.p95(), l.p99(), l.p999(), l.max())) {
                    row.add(Cells.num(v));
                }
            }
            rows.add(row);
        }
        return new Table("Response time (ms)", header(jvms, "avg", "p50", "p90", "p95", "p99", "p99.9", "max"), rows);
    }

    private static Table throughput(List<Result> results, String jvms) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            List<String> row = who(r, jvms);
            if (!r.ok()) {
                row.addAll(List.of("failed", "", "", "", "", "", "", "", ""));
            } else {
                Result.ErrorCounts e = r.load().errors();
                row.addAll(List.of(Cells.num(r.load().throughputRps()), Cells.num(r.load().requests()), Cells.num(e.total()), Cells.num(e.connect()),
                        Cells.num(e.timeout()), Cells.num(e.status4xx()), Cells.num(e.status5xx()), Cells.num(e.other()),
                        Cells.num(r.checks().driver() == null ? null : r.checks().driver().cpuPctMean())));
            }
            rows.add(row);
        }
        return new Table("Throughput and reliability", header(jvms, "rps", "requests", "errors", "connect", "timeout", "4xx", "5xx",
                "other", "driver CPU %"), rows);
    }

    /** JMeter's agents: each one's part of the window, and its clock against the lab's as it read it before its load. */
    private static Table agents(List<Result> results, String jvms) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            if (!r.ok() || r.checks().driver() == null || r.checks().driver().agents() == null) {
                continue;
            }
            for (DriverCheck.Agent a : r.checks().driver().agents()) {
                List<String> row = who(r, jvms);
                row.addAll(List.of(a.agent(), Cells.num(a.requests()),
                        r.load().requests() == null || r.load().requests() == 0 ? "" : Cells.num(Result.round(100.0 * a.requests() / r.load().requests())),
                        Cells.num(a.throughputRps()), Cells.num(a.inFlight()), Cells.num(a.p50Ms()), Cells.num(a.p99Ms()),
                        a.clockOffsetMs() == null ? "no reading" : Cells.num(a.clockOffsetMs()) + " ± " + Cells.num(a.clockErrorMs()),
                        a.cpus() == null ? "not reported" : Cells.num(a.cpuPctMean()) + " (max " + Cells.num(a.cpuPctMax()) + ") of " + a.cpus() * 100
                                + (Boolean.TRUE.equals(a.saturated()) ? ", saturated" : "")));
                rows.add(row);
            }
        }
        return new Table("Load per agent (the agent's clock minus the lab's, read before its load; its send times are moved by it."
                + " Its JVM's CPU as it reported it each second, 100 = one core)",
                header(jvms, "agent", "requests", "% of requests", "rps", "in flight", "p50 ms", "p99 ms", "clock offset ms", "agent CPU %"), rows);
    }

    private static Table phases(List<Result> results, String jvms) {
        boolean limited = results.stream().anyMatch(r -> phases(r).stream().anyMatch(p -> p.limits() != null));
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            for (PhaseStats p : phases(r)) {
                List<String> row = who(r, jvms);
                PhaseStats.TargetRanges t = p.target();
                row.addAll(List.of(p.name(), Cells.num(p.fromS()) + " to " + Cells.num(p.toS()),
                        Cells.range(t.cpuPct()) + " (mean " + Cells.num(t.cpuPct() == null ? null : t.cpuPct().mean()) + ")",
                        Cells.range(t.rssMb()), Cells.range(t.threads()), Cells.range(t.fds()), meanCpu(p.stub()), meanCpu(p.db())));
                if (limited) {
                    PhaseStats.CgroupUse l = p.limits();
                    row.addAll(List.of(Cells.num(l == null ? null : l.throttledPct()), Cells.num(l == null ? null : l.memoryMaxMb())));
                }
                rows.add(row);
            }
        }
        List<String> columns = new ArrayList<>(List.of("phase", "s", "CPU %", "RSS MB", "threads", "open files", "stub CPU %", "DB CPU %"));
        if (limited) {
            columns.addAll(List.of("throttled % of periods", "cgroup memory max MB"));
        }
        return new Table("Target resources per phase (CPU: 100 = one core; s relative to the measured load)",
                header(jvms, columns.toArray(String[]::new)), rows);
    }

    private static Table jvm(List<Result> results, String jvms) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            JvmFacts j = r.telemetry().jvm();
            if (j == null) {
                continue;
            }
            List<String> row = who(r, jvms);
            if (!j.available()) {
                row.addAll(List.of("-", "-", "-", "-", "-", "-", "-", "unavailable: " + j.note()));
            } else {
                List<JvmFacts.PinnedFrame> top = j.pinnedTopFrames() == null ? List.of() : j.pinnedTopFrames();
                String pinning = j.pinningNote() != null ? j.pinningNote()
                        : j.pinnedEvents() + (top.isEmpty() ? "" : ", top: " + top.get(0).frame() + " x" + top.get(0).count());
                row.addAll(List.of(Cells.num(j.gcPauses()), Cells.num(j.gcPauseTotalMs()), Cells.num(j.gcPauseMaxMs()),
                        Cells.num(j.heapAfterGcPeakMb()), Cells.num(j.allocRateMbS()), Cells.num(j.peakPlatformThreads()),
                        j.virtualThreads() ? "yes" : "no", pinning));
            }
            rows.add(row);
        }
        return new Table("JVM internals over the measured window (JFR)", header(jvms, "GC pauses", "GC total ms", "GC max ms",
                "heap after GC MB", "alloc MB/s", "platform threads", "virtual threads", "pinning"), rows);
    }

    private static Table steadyState(RunRecord root, String jvms) {
        boolean steps = root.results().stream().anyMatch(r -> r.key().step() != null);
        boolean cells = root.results().stream().anyMatch(r -> r.key().cell() != null);
        List<List<String>> rows = new ArrayList<>();
        for (Result r : root.results()) {
            SteadyState ss = r.checks().steadyState();
            if (ss == null) {
                continue;
            }
            List<String> row = new ArrayList<>(List.of(r.target(), r.scenario()));
            if (jvms != null) {
                row.add(String.valueOf(r.jvm()));
            }
            if (steps) {
                row.add(r.key().step() == null ? "-" : r.key().step().toString());
            }
            if (cells) {
                row.add(r.key().cell() == null ? "-" : r.cellLabel());
            }
            SteadyState.DriftCheck drift = ss.drift();
            int compiled = ss.compileStage();
            String stage = compiled > 0 ? " (" + compiled + " of them at " + ss.compileStageUsers() + " users)" : "";
            row.addAll(List.of(ss.reached() ? "yes" : "no", (ss.reached() ? Cells.num(ss.seconds()) : "not within " + Cells.num(ss.budgetS()) + " s") + stage,
                    jit(ss.jit() == null ? null : ss.jit().warmup(), 1000), jit(ss.jit() == null ? null : ss.jit().measured(), 1),
                    drift == null || drift.rpsChangePct() == null ? "-" : Cells.pct(drift.rpsChangePct()) + (drift.drifting() ? ", drifting" : "")));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("target", "scenario"));
        if (jvms != null) {
            header.add(jvms);
        }
        if (steps) {
            header.add("step");
        }
        if (cells) {
            header.add("cell");
        }
        header.addAll(List.of("reached", "s to steady", "JIT during warmup s", "JIT while measured ms", "throughput drift (last vs first third)"));
        return new Table("", header, rows);
    }

    /** Compile time in {@code perUnit} ms and the number of compilations; "-" when the JVM published no counters. */
    private static String jit(SteadyState.JitWork j, double perUnit) {
        if (j == null) {
            return "-";
        }
        return Cells.num(j.compileMs() / perUnit) + " (" + j.compiles() + " compiles)";
    }

    private static String meanCpu(PhaseStats.Role role) {
        return Cells.num(role == null || role.cpuPct() == null ? null : role.cpuPct().mean());
    }

    private static List<PhaseStats> phases(Result r) {
        return r.telemetry().phases() == null ? List.of() : r.telemetry().phases();
    }

    private static Table parity(RunRecord root) {
        List<List<String>> rows = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (Result r : root.results()) {
            String target = r.target();
            if (seen.contains(target) || !r.ok()) {
                continue;
            }
            seen.add(target);
            TargetConfig c = r.visit().targetConfig();
            TargetConfig.Server server = c == null ? null : c.server();
            String threads = server == null ? "-" : server.eventLoops() != null ? server.eventLoops() + " event loops"
                    : server.threadsMax() != null ? server.threadsMax() + " max threads" : "-";
            TargetConfig.HttpClientPool http = c == null ? null : c.httpClient();
            TargetConfig.DbPool db = c == null ? null : c.dbPool();
            TargetConfig.Jvm jvm = c == null ? null : c.jvm();
            rows.add(List.of(target, server == null ? "-" : server.engine(), threads, server == null ? "-" : String.valueOf(server.virtualThreads()),
                    http == null ? "-" : http.library() + " " + http.maxConnections(), db == null ? "-" : db.library() + " " + db.maxSize(),
                    jvm == null ? "-" : String.valueOf(jvm.heapMaxMb()),
                    (r.visit().targetCpus() == null ? "-" : r.visit().targetCpus()) + " (JVM sees " + (jvm == null ? "?" : jvm.availableProcessors()) + ")",
                    jvm == null ? "-" : jvm.jdk()));
        }
        return new Table("", List.of("target", "server", "threads / loops", "virtual threads", "HTTP client pool", "DB pool", "heap MB", "CPUs",
                "JDK"), rows);
    }

    private static Section repeats(RunRecord root) {
        List<List<String>> rows = new ArrayList<>();
        List<Paragraph> verdicts = new ArrayList<>();
        RepeatSummary summary = root.summary();
        if (summary != null) {
            for (RepeatSummary.Median e : summary.estimates()) {
                rows.add(List.of(e.target(), e.scenario(), e.metric(), String.valueOf(e.n()), Cells.num(e.median()),
                        Cells.num(e.ciLow()) + " - " + Cells.num(e.ciHigh()), Cells.num(e.min()) + " - " + Cells.num(e.max())));
            }
            verdicts.add(Paragraph.plain("Method: " + summary.method()));
            for (RepeatSummary.PairVerdict v : summary.verdicts()) {
                verdicts.add(Paragraph.bullet(v.scenario() + " " + v.metric() + ", " + v.a() + " vs " + v.b() + ": " + v.text()));
            }
        }
        return new Section("Repeats: medians, 95% confidence intervals and verdicts", verdicts,
                List.of(new Table("", List.of("target", "scenario", "metric", "n", "median", "95% CI", "min - max"), rows)), List.of());
    }

    private static Section capacity(RunRecord root) {
        boolean repeated = root.jvmsPerTarget() > 1;
        List<List<String>> rows = new ArrayList<>();
        for (CapacitySearchResult c : root.capacity()) {
            List<String> steps = c.steps().stream().map(s -> s.offeredRps() + (s.sloMet() ? " ok" : " miss")).toList();
            List<String> row = new ArrayList<>(List.of(c.target(), c.scenario()));
            if (repeated) {
                row.add(String.valueOf(c.repeat()));
            }
            row.addAll(List.of(c.capacityRps() + (c.reachedMax() ? " (limit of the search)" : ""), c.slo(), String.join(", ", steps)));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("target", "scenario"));
        if (repeated) {
            header.add("search");
        }
        header.addAll(List.of("capacity rps", "SLO", "steps (rps)"));
        List<Table> tables = new ArrayList<>();
        List<List<String>> medians = new ArrayList<>();
        for (CapacityMedian m : root.capacitySummary() == null ? List.<CapacityMedian>of() : root.capacitySummary()) {
            medians.add(List.of(m.target(), m.scenario(), String.valueOf(m.n()), Cells.num(m.medianRps()), Cells.num(m.minRps()) + " - " + Cells.num(m.maxRps()),
                    Cells.num(m.spreadPct()) + "%", m.slo()));
        }
        if (!medians.isEmpty()) {
            tables.add(new Table("Median over searches", List.of("target", "scenario", "searches", "median rps", "min - max", "spread", "SLO"), medians));
        }
        tables.add(new Table(repeated ? "Every search" : "", header, rows));
        return new Section("Capacity at the SLO", List.of(Paragraph.plain("The highest offered rate (open model) whose step met the SLO; "
                + "every step had its own warmup" + (repeated ? ", every search its own fresh JVM; spread = (max - min) / median." : "."))),
                tables, List.of("capacity"));
    }
}
