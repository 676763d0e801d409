package dev.loomflux.lab.measure;

import dev.loomflux.lab.driver.AgentShare;
import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.Errors;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.WindowShare;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.result.DriverCheck;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.LimitsReport;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Result.Latency;
import dev.loomflux.lab.result.Result.PerSecond;
import dev.loomflux.lab.result.SteadyState;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * Results made of what the driver measured. result/ knows no type of the driver's, the cgroups' or the
 * experiment's, so that the report and compare read results.json with nothing else on their path; the
 * translation lives here.
 */
public final class MeasuredResult {
    private MeasuredResult() {
    }

    /** @param flows a load of flows: each flow and step over the window (FlowResults); empty for one request per iteration */
    static Result.WindowLoad window(Measurement m, boolean openModel, List<FlowResult> flows) {
        double seconds = m.elapsed().toMillis() / 1000.0;
        return new Result.WindowLoad(Result.round(seconds), m.requests(), m.responses(), Result.round(m.throughput()), Result.round(m.inFlight()),
                Latency.of(m.latency()), FlowResults.errors(m.errors(), flows), new Result.Bytes(m.bytesSent(), m.bytesReceived()),
                openModel ? m.behindSchedule() : null, m.cacheHits(), m.reconnections(), flows.isEmpty() ? null : flows, null);
    }

    /** A measured window's result. */
    static Result of(String target, String scenario, Result.WindowLoad load, Result.Files files, Result.Telemetry telemetry, Result.Checks checks) {
        return new Result(new Result.Key(target, scenario, null, null, null, null), Result.Status.OK, load, telemetry, files, checks, null, null);
    }

    /**
     * A target's measured blocks of interleaved rounds as one load: its requests, responses, errors and latencies over every
     * block, its throughput over their send windows.
     *
     * @param flows          a load of flows: each flow and step over the blocks (FlowResults); empty for one request per iteration
     * @param behindSchedule whether an open model's driver fell behind its schedule; null for a closed model
     */
    public static Result.WindowLoad overBlocks(List<Block> own, List<FlowResult> flows, Boolean behindSchedule) {
        Histogram latency = own.get(0).latency().copy();
        long requests = 0;
        long responses = 0;
        WindowShare share = WindowShare.NONE;
        double seconds = 0;
        Errors errors = new Errors(0, 0, 0, 0, 0);
        long reconnections = 0;
        for (int i = 0; i < own.size(); i++) {
            Block b = own.get(i);
            if (i > 0) {
                latency.add(b.latency());
            }
            requests += b.requests();
            responses += b.responses();
            share = share.plus(b.share());
            seconds += b.seconds();
            errors = errors.plus(b.errors());
            reconnections += b.reconnections();
        }
        return new Result.WindowLoad(Result.round(seconds), requests, responses, Result.round(share.rps(seconds)), Result.round(share.inFlight(seconds)),
                Latency.of(latency), FlowResults.errors(errors, flows), null, behindSchedule, null, reconnections, flows.isEmpty() ? null : flows, null);
    }

    /**
     * A target's measured blocks of interleaved rounds as one result: their load ({@link #overBlocks}), one row per block in
     * {@code series} (t = the block's round, from 1; rps its throughput, cpu_pct its CPU over the block).
     *
     * @param files its latency log, the rounds' plan and its JFR recording (null when it could not be dumped)
     */
    public static Result ofRounds(String target, String scenario, Result.WindowLoad load, List<PerSecond> series, Result.Files files, SteadyState steadyState) {
        return new Result(new Result.Key(target, scenario, null, null, null, null), Result.Status.OK, load, new Result.Telemetry(series, null, null, null, null),
                files, new Result.Checks(steadyState, null, null), null, null);
    }

    /** Not a sample of the target's speed: statistics over repeats must not average it in. */
    static Result noResponses(String name, String scenario, Measurement m) {
        Errors e = m.errors();
        if (e.total() == 0) {
            // Every request outlived the window, still queued: slower than the window, not failed
            return Result.failed(name, scenario, "no responses within the measured " + m.elapsed().toMillis() / 1000.0 + " s: "
                    + m.requests() + " requests sent, none answered and none failed (each took longer than the window; a longer --duration)");
        }
        return Result.failed(name, scenario, "no responses: all " + m.requests() + " requests failed (" + e.timeout() + " timeouts, "
                + e.connect() + " connect errors, " + e.status4xx() + " 4xx, " + e.status5xx() + " 5xx, " + e.other() + " other)");
    }

    /**
     * JMeter's agents, each with its part of the window; empty without agents.
     *
     * @param hlog the file name of an agent's latency log, by its index
     */
    static List<DriverCheck.Agent> agents(Measurement m, IntFunction<String> hlog) {
        return IntStream.range(0, m.agents().size()).mapToObj(i -> agent(m.agents().get(i), hlog.apply(i))).toList();
    }

    private static DriverCheck.Agent agent(AgentShare a, String hlog) {
        return new DriverCheck.Agent(a.agent(), a.requests(), a.responses(), Result.round(a.throughputRps()),
                Result.round(a.inFlight()), Double.isNaN(a.clockOffsetMs()) ? null : Result.round(a.clockOffsetMs()),
                Double.isNaN(a.clockErrorMs()) ? null : Result.round(a.clockErrorMs()), Result.finite(a.p50Ms()), Result.finite(a.p99Ms()),
                a.cpu() == null ? null : a.cpu().cpus(), a.cpu() == null ? null : Result.round(a.cpu().meanPct()),
                a.cpu() == null ? null : Result.round(a.cpu().maxPct()),
                a.cpu() == null ? null : DriverCpu.saturated(a.cpu().meanPct(), a.cpu().cpus()), hlog);
    }

    /** The per-second rows of a measurement before any telemetry is added. */
    static List<PerSecond> series(Measurement m, boolean openModel) {
        return m.series().stream().map(s -> perSecond(s.t(), s, openModel)).toList();
    }

    /** The load's figures of a second heard at {@code t}, before telemetry. */
    static PerSecond second(int t, Second s) {
        return perSecond(t, s, false);
    }

    /** @param openModel whether to keep the schedule's figures: intended arrivals and requests sent */
    private static PerSecond perSecond(int t, Second s, boolean openModel) {
        return new PerSecond.Builder(t).rps(Result.round(s.rps())).p50(Result.finite(s.p50Ms())).p99(Result.finite(s.p99Ms())).errors(s.errors())
                .users(s.users()).intended(openModel ? s.intended() : null).sent(openModel ? s.requests() : null).build();
    }

    /** What the limits did to one measured window; {@code start} read as the measured load began, {@code end} as it ended. */
    static LimitsReport limits(ResourceLimits limits, Cgroup.Usage start, Cgroup.Usage end) {
        Cgroup.Change c = end.since(start);
        return new LimitsReport(limits.cpus() > 0 ? limits.cpus() : null, limits.memoryBytes() > 0 ? limits.memoryBytes() / (1 << 20) : null,
                tenths(c.cpuPct()), c.periods(), c.throttledPeriods(), tenths(c.throttledPct()), tenths(c.throttledSeconds()),
                tenths(end.memoryBytes() / 1048576.0), tenths(end.peakMemoryBytes() / 1048576.0), end.oomKills());
    }

    private static double tenths(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
