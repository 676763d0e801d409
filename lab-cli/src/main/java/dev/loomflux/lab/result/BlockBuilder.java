package dev.loomflux.lab.result;

import java.util.List;
import java.util.Map;

/** A block by its figures' names; a figure not given is absent (a count: 0). */
public final class BlockBuilder {
    private String scenario;
    private Map<String, Integer> cell;
    private int set;
    private int round;
    private int position;
    private String target;
    private Integer users;
    private Double thinkMs;
    private double seconds;
    private long requests;
    private long responses;
    private long errors;
    private double rps;
    private Double inFlight;
    private List<Double> secondsRps;
    private Long intended;
    private Long reconnections;
    private Double p50;
    private Double p99;
    private Double meanMs;
    private Double cpuMsPerRequest;
    private Double rssMb;
    private Double gcMs;
    private BlockRecord.Shape shape;
    private Double jitMs;
    private Double canaryUs;
    private Double compilerCpuMs;
    private Double othersCompilerCpuMs;
    private List<BlockRecord.FlowFigures> flows;
    private Map<String, Long> categories;
    private List<BlockRecord.AgentFigures> agents;

    BlockBuilder() {
    }

    public BlockBuilder scenario(String scenario) {
        this.scenario = scenario;
        return this;
    }

    public BlockBuilder cell(Map<String, Integer> cell) {
        this.cell = cell;
        return this;
    }

    public BlockBuilder set(int set) {
        this.set = set;
        return this;
    }

    public BlockBuilder round(int round) {
        this.round = round;
        return this;
    }

    public BlockBuilder position(int position) {
        this.position = position;
        return this;
    }

    public BlockBuilder target(String target) {
        this.target = target;
        return this;
    }

    public BlockBuilder users(Integer users) {
        this.users = users;
        return this;
    }

    public BlockBuilder thinkMs(Double thinkMs) {
        this.thinkMs = thinkMs;
        return this;
    }

    public BlockBuilder seconds(double seconds) {
        this.seconds = seconds;
        return this;
    }

    public BlockBuilder requests(long requests) {
        this.requests = requests;
        return this;
    }

    public BlockBuilder responses(long responses) {
        this.responses = responses;
        return this;
    }

    public BlockBuilder errors(long errors) {
        this.errors = errors;
        return this;
    }

    public BlockBuilder rps(double rps) {
        this.rps = rps;
        return this;
    }

    public BlockBuilder inFlight(Double inFlight) {
        this.inFlight = inFlight;
        return this;
    }

    public BlockBuilder secondsRps(List<Double> secondsRps) {
        this.secondsRps = secondsRps;
        return this;
    }

    public BlockBuilder intended(Long intended) {
        this.intended = intended;
        return this;
    }

    public BlockBuilder reconnections(Long reconnections) {
        this.reconnections = reconnections;
        return this;
    }

    public BlockBuilder p50(Double p50) {
        this.p50 = p50;
        return this;
    }

    public BlockBuilder p99(Double p99) {
        this.p99 = p99;
        return this;
    }

    public BlockBuilder meanMs(Double meanMs) {
        this.meanMs = meanMs;
        return this;
    }

    public BlockBuilder cpuMsPerRequest(Double cpuMsPerRequest) {
        this.cpuMsPerRequest = cpuMsPerRequest;
        return this;
    }

    public BlockBuilder rssMb(Double rssMb) {
        this.rssMb = rssMb;
        return this;
    }

    public BlockBuilder gcMs(Double gcMs) {
        this.gcMs = gcMs;
        return this;
    }

    public BlockBuilder jitMs(Double jitMs) {
        this.jitMs = jitMs;
        return this;
    }

    /** Its JVM's compiler threads' CPU over the window, and the other target JVMs' (ms). */
    public BlockBuilder compilerCpuMs(Double own, Double others) {
        this.compilerCpuMs = own;
        this.othersCompilerCpuMs = others;
        return this;
    }

    public BlockBuilder canaryUs(Double canaryUs) {
        this.canaryUs = canaryUs;
        return this;
    }

    public BlockBuilder flows(List<BlockRecord.FlowFigures> flows) {
        this.flows = flows;
        return this;
    }

    public BlockBuilder categories(Map<String, Long> categories) {
        this.categories = categories;
        return this;
    }

    public BlockBuilder agents(List<BlockRecord.AgentFigures> agents) {
        this.agents = agents;
        return this;
    }

    /** A whole shape's block: its target's peaks and its death, if it died. */
    public BlockBuilder shape(BlockRecord.Shape shape) {
        this.shape = shape;
        return this;
    }

    public BlockRecord build() {
        return new BlockRecord(new BlockRecord.Turn(scenario, cell, set, round, position, target),
                new BlockRecord.BlockLoad(users, thinkMs, seconds, requests, responses, errors, rps, inFlight, secondsRps, intended, reconnections),
                new BlockRecord.BlockLatency(p50, p99, meanMs), new BlockRecord.Resources(cpuMsPerRequest, rssMb, gcMs, jitMs, canaryUs, compilerCpuMs, othersCompilerCpuMs), flows, categories, agents, shape);
    }
}
