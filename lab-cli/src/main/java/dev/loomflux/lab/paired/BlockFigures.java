package dev.loomflux.lab.paired;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.measure.FlowResults;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.telemetry.ProcessProbe;
import java.util.Map;

/** A scenario's (cell's) measured blocks as results.json holds them, each with its JVM's readings at its edges. */
final class BlockFigures {
    private final String scenario;
    private final Map<String, Integer> cell;
    private final Integer users;
    private final Double thinkMs;

    /**
     * @param cell    a sweep's cell, or null
     * @param profile the block's load: its users (a closed model) and think time go into every block
     */
    BlockFigures(String scenario, Map<String, Integer> cell, LoadProfile profile) {
        this.scenario = scenario;
        this.cell = cell;
        this.users = profile instanceof LoadProfile.Fixed f ? f.users() : null;
        this.thinkMs = profile.think().none() ? null : profile.think().meanMs();
    }

    /**
     * @param round    the measured round, from 1
     * @param canaryUs the CPU canary's delay over the block, or null
     */
    BlockRecord of(Block b, int round, String target, int set, Double canaryUs, JvmReadings.Edges edges) {
        ProcessProbe.Snapshot from = edges.from();
        ProcessProbe.Snapshot to = edges.to();
        ProcessProbe.Snapshot previousEnd = edges.previousEnd();
        boolean any = b.latency().getTotalCount() > 0;
        Double mean = any ? Result.round(b.latency().getMean() / 1e6) : null;
        Double cpu = from != null && to != null && b.responses() > 0 ? Result.round((double) (to.cpuMs() - from.cpuMs()) / b.responses()) : null;
        Double gc = from != null && to != null && from.gcMs() >= 0 && to.gcMs() >= 0 ? Result.round(to.gcMs() - from.gcMs()) : null;
        Double jit = previousEnd != null && to != null && previousEnd.jitMs() >= 0 && to.jitMs() >= 0 ? Result.round(to.jitMs() - previousEnd.jitMs()) : null;
        return BlockRecord.builder().scenario(scenario).cell(cell).set(set).round(round).position(b.position()).target(target)
                .users(users).thinkMs(thinkMs).seconds(Result.round(b.seconds())).requests(b.requests()).responses(b.responses())
                .errors(b.errors().total() + FlowResults.stepFailures(b.flows())).rps(Result.round(b.rps()))
                .p50(any ? Result.round(b.latency().getValueAtPercentile(50) / 1e6) : null)
                .p99(any ? Result.round(b.latency().getValueAtPercentile(99) / 1e6) : null).meanMs(mean)
                .inFlight(mean == null ? null : Result.round(b.inFlight())).cpuMsPerRequest(cpu).rssMb(to == null ? null : Result.round(to.rssMb()))
                .gcMs(gc).jitMs(jit).compilerCpuMs(edges.compilerMs(), edges.othersCompilerMs()).canaryUs(canaryUs == null ? null : Result.round(canaryUs))
                .secondsRps(b.secondsRps().stream().map(Result::round).toList()).intended(b.intended() < 0 ? null : b.intended())
                .reconnections(b.reconnections()).flows(b.flows().isEmpty() ? null : FlowResults.figures(b.flows()))
                .agents(b.agents().isEmpty() ? null : b.agents().stream().map(a -> new BlockRecord.AgentFigures(a.agent(), a.requests(), a.responses(),
                        Result.round(a.inFlight()), a.lateMs(), Result.round(a.clockOffsetMs()), Result.round(a.clockErrorMs()))).toList())
                .build();
    }
}
