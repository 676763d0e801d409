package dev.loomflux.lab.report;

import dev.loomflux.lab.result.DriverCheck;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.JvmFacts;
import dev.loomflux.lab.result.PhaseStats;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.StepResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A scenario's tables, one row per result: response times, throughput and errors, each JMeter agent's
 * part, the target's resources per phase, its JVM and where its CPU went. With repeats a column says which one: "repeat",
 * or in the paired design "set" (the set of JVMs); {@code column} null leaves it out.
 */
final class ScenarioTables {
    private ScenarioTables() {
    }

    /** All of them, in the report's order: a flow scenario's tables per flow, and its table of rows, after the throughput. */
    static List<Table> of(List<Result> all, String column) {
        List<Table> out = new ArrayList<>(List.of(latency(all, column), throughput(all, column)));
        out.addAll(flows(all, column));
        Table rows = dataRows(all);
        if (rows != null) {
            out.add(rows);
        }
        out.addAll(List.of(agents(all, column), phases(all, column), jvm(all, column), pinnedStacks(all, column), CpuBreakdown.table(all, column), ThreadTable.of(all, column)));
        return out;
    }

    /**
     * A table per flow: its whole iterations, then each step, every target under each, with their rates, latencies and
     * failures by cause (a step's own: a status it does not expect, a value it could not extract).
     */
    private static List<Table> flows(List<Result> results, String column) {
        List<Result> withFlows = results.stream().filter(r -> r.ok() && r.load().flows() != null).toList();
        List<String> names = withFlows.stream().flatMap(r -> r.load().flows().stream()).map(FlowResult::flow).distinct().toList();
        List<Table> out = new ArrayList<>();
        for (String flow : names) {
            List<List<String>> rows = new ArrayList<>();
            List<String> steps = new ArrayList<>();
            for (Result r : withFlows) {
                FlowResult f = flow(r, flow);
                if (f == null) {
                    continue;
                }
                f.steps().stream().map(StepResult::step).filter(s -> !steps.contains(s)).forEach(steps::add);
                List<String> row = new ArrayList<>(List.of("whole iteration", ""));
                row.addAll(who(r, column));
                row.addAll(figures(f.throughputRps(), f.latencyMs()));
                row.addAll(List.of(Cells.num(f.completed()), Cells.num(f.failed()), "", "", "", "", "", ""));
                rows.add(row);
            }
            for (String step : steps) {
                for (Result r : withFlows) {
                    FlowResult f = flow(r, flow);
                    StepResult s = f == null ? null : f.steps().stream().filter(x -> x.step().equals(step)).findFirst().orElse(null);
                    if (s == null) {
                        continue;
                    }
                    Result.ErrorCounts e = s.errors();
                    List<String> row = new ArrayList<>(List.of(step, s.request()));
                    row.addAll(who(r, column));
                    row.addAll(figures(s.throughputRps(), s.latencyMs()));
                    row.addAll(List.of(Cells.num(s.responses()), Cells.num(e.total()), Cells.num(e.connect()), Cells.num(e.timeout()), Cells.num(e.status4xx()),
                            Cells.num(e.status5xx()), Cells.num(e.unexpected()),
                            Cells.num(e.missing()) + (s.missingCause() == null ? "" : " (" + s.missingCause() + ")")));
                    rows.add(row);
                }
            }
            List<String> header = new ArrayList<>(List.of("step", "request", "target"));
            if (column != null) {
                header.add(column);
            }
            header.addAll(List.of("rps", "p50 ms", "p90 ms", "p99 ms", "max ms", "completed or responses", "failed", "connect", "timeout", "4xx", "5xx",
                    "unexpected status", "missing value"));
            out.add(new Table("Flow " + flow + ": whole iterations (completed per second, first request sent to last response) and each step",
                    header, rows));
        }
        return out;
    }

    private static FlowResult flow(Result r, String name) {
        return r.load().flows().stream().filter(f -> f.flow().equals(name)).findFirst().orElse(null);
    }

    private static List<String> figures(Double rps, Result.Latency l) {
        return List.of(Cells.num(rps), Cells.num(l == null ? null : l.p50()), Cells.num(l == null ? null : l.p90()), Cells.num(l == null ? null : l.p99()),
                Cells.num(l == null ? null : l.max()));
    }

    /** How each target's own copy of table item grew under the load; a target's sets share one copy, counted once after all of them. */
    private static Table dataRows(List<Result> results) {
        Map<String, Result.DataRows> byTarget = new LinkedHashMap<>();
        results.stream().filter(r -> r.ok() && r.load().dataRows() != null).forEach(r -> byTarget.putIfAbsent(r.target(), r.load().dataRows()));
        if (byTarget.isEmpty()) {
            return null;
        }
        List<List<String>> rows = new ArrayList<>();
        byTarget.forEach((t, d) -> rows.add(List.of(t, Cells.num(d.atReset()), Cells.num(d.after()), String.format(Locale.ROOT, "%+d", d.growth()))));
        return new Table("Table item: each target's own copy, reset before the load and counted after it (rows left: creates no delete followed)",
                List.of("target", "rows at reset", "rows after", "growth"), rows);
    }

    /** A row's first cells: its target and, with a column, its repeat or set. */
    static List<String> who(Result r, String column) {
        List<String> cells = new ArrayList<>();
        cells.add(r.target());
        if (column != null) {
            cells.add(String.valueOf(r.jvm()));
        }
        return cells;
    }

    /** The header of a table whose rows start with {@link #who}. */
    static List<String> header(String column, String... rest) {
        List<String> h = new ArrayList<>(List.of("target"));
        if (column != null) {
            h.add(column);
        }
        h.addAll(List.of(rest));
        return h;
    }

    private static Table latency(List<Result> results, String column) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            List<String> row = who(r, column);
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
        return new Table("Response time (ms)", header(column, "avg", "p50", "p90", "p95", "p99", "p99.9", "max"), rows);
    }

    private static Table throughput(List<Result> results, String column) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            List<String> row = who(r, column);
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
        return new Table("Throughput and reliability", header(column, "rps", "requests", "errors", "connect", "timeout", "4xx", "5xx",
                "other", "driver CPU %"), rows);
    }

    /** JMeter's agents: each one's part of the window, and its clock against the lab's as it read it before its load. */
    private static Table agents(List<Result> results, String column) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            if (!r.ok() || r.checks().driver() == null || r.checks().driver().agents() == null) {
                continue;
            }
            for (DriverCheck.Agent a : r.checks().driver().agents()) {
                List<String> row = who(r, column);
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
                header(column, "agent", "requests", "% of requests", "rps", "in flight", "p50 ms", "p99 ms", "clock offset ms", "agent CPU %"), rows);
    }

    private static Table phases(List<Result> results, String column) {
        boolean limited = results.stream().anyMatch(r -> phases(r).stream().anyMatch(p -> p.limits() != null));
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            for (PhaseStats p : phases(r)) {
                List<String> row = who(r, column);
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
                header(column, columns.toArray(String[]::new)), rows);
    }

    private static Table jvm(List<Result> results, String column) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            JvmFacts j = r.telemetry().jvm();
            if (j == null) {
                continue;
            }
            List<String> row = who(r, column);
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
        return new Table("JVM internals over the measured window (JFR)", header(column, "GC pauses", "GC total ms", "GC max ms",
                "heap after GC MB", "alloc MB/s", "platform threads", "virtual threads", "pinning"), rows);
    }

    /** Each place a target's virtual threads were pinned, with the whole stack of its first event there, leaf first. */
    private static Table pinnedStacks(List<Result> results, String column) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            JvmFacts j = r.telemetry().jvm();
            if (j == null || j.pinnedTopFrames() == null) {
                continue;
            }
            for (JvmFacts.PinnedFrame p : j.pinnedTopFrames()) {
                List<String> row = who(r, column);
                row.addAll(List.of(p.frame(), Cells.num(p.count()), String.join(" < ", p.stack())));
                rows.add(row);
            }
        }
        return new Table("Where virtual threads were pinned (JFR jdk.VirtualThreadPinned, over 20 ms; the stack leaf first, each frame called by the next)",
                header(column, "where", "events", "stack"), rows);
    }

    private static String meanCpu(PhaseStats.Role role) {
        return Cells.num(role == null || role.cpuPct() == null ? null : role.cpuPct().mean());
    }

    private static List<PhaseStats> phases(Result r) {
        return r.telemetry().phases() == null ? List.of() : r.telemetry().phases();
    }}
