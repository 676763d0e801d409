package dev.loomflux.lab.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One block of interleaved rounds in results.json's {@code blocks}: one target's turn in one round
 * (docs/results-schema.md). Its parts are a Java grouping only: results.json has their fields flat, in the block.
 *
 * @param flows      a load of flows: each flow's figures over the block, with its steps' (the load's figures count the steps'
 *                   requests together, and {@code errors} their failures); null for one request per iteration
 * @param categories the JVM's Java execution samples in the block (JFR) per CPU profile category, every category, in the
 *                   profile's order; null without a profile
 * @param agents     on JMeter's agents, each agent's part of the block; null on one driver
 * @param shape      a block of a whole shape: the target's peak memory and threads over it, and its death if it died in it;
 *                   null for a block of fixed users or a rate
 */
public record BlockRecord(@JsonUnwrapped Turn turn, @JsonUnwrapped BlockLoad load, @JsonUnwrapped BlockLatency latency,
                          @JsonUnwrapped Resources resources, List<FlowFigures> flows, Map<String, Long> categories, List<AgentFigures> agents,
                          Shape shape) {
    public BlockRecord {
        agents = agents == null ? null : List.copyOf(agents);
        categories = categories == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(categories));
        flows = flows == null ? null : List.copyOf(flows);
    }

    /**
     * Which block: whose turn, where in the rounds.
     *
     * @param cell     a sweep's cell ({@code {"users": 50}}); null outside a sweep
     * @param set      the set of JVMs (1.. --sets) the block belongs to
     * @param round    from 1; lead-in rounds are not recorded
     * @param position where in its round the block ran, from 0
     */
    public record Turn(String scenario, Map<String, Integer> cell, int set, int round, int position, String target) {
        public Turn {
            cell = cell == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(cell));
        }
    }

    /**
     * The block's load: what was sent in its send window and how it was answered.
     *
     * @param users         a closed model's users; null for an open model
     * @param thinkMs       a closed model's mean pause between a response and the user's next request; null without think time
     * @param seconds       the send window; every request sent in it was answered, failed or timed out
     * @param rps           responses per second of the send window
     * @param inFlight      the mean number of requests in flight over the block, each by its time inside it: a closed
     *                      model's busy users (Little's law's L)
     * @param secondsRps    responses per second by the second their request was sent
     * @param intended      open model: the arrivals the schedule asked for in the send window; absent for a closed model
     * @param reconnections responses to the block's requests that closed their connection ({@code Connection: close}); not errors
     */
    public record BlockLoad(Integer users, Double thinkMs, double seconds, long requests, long responses, long errors, double rps, Double inFlight,
                            List<Double> secondsRps, Long intended, Long reconnections) {
        public BlockLoad {
            secondsRps = secondsRps == null ? List.of() : List.copyOf(secondsRps);
        }

        /** A part's counts over the same window, users and schedule; a part has no figures per second and no schedule of its own. */
        BlockLoad counted(long requests, long responses, long errors, double rps) {
            return new BlockLoad(users, thinkMs, seconds, requests, responses, errors, rps, inFlight, List.of(), null, reconnections);
        }
    }

    /** The block's latencies, ms; null without a response. */
    public record BlockLatency(Double p50, Double p99, Double meanMs) {
    }

    /**
     * The target's CPU, memory, GC and JIT over the block, and the machine's speed on its CPUs.
     *
     * @param cpuMsPerRequest the target's CPU time (user + system) from the block's start to its last response, per response
     * @param rssMb           the target's resident memory at the block's end
     * @param gcMs            the target's collector time over the block (hsperfdata), null where it publishes none
     * @param jitMs           the time the JVM's finished JIT compilations took since its previous block ended (hsperfdata): over
     *                        this block and the others' blocks before it in the rounds, as a JIT compiles in the background; null
     *                        where it publishes none
     * @param canaryUs        the CPU canary's median time over the block on the target's CPUs (µs; higher is a slower machine), null without one
     * @param compilerCpuMs   the CPU its JVM's JIT compiler threads took over the block's measured window (/proc), null where unknown
     * @param othersCompilerCpuMs the CPU the other target JVMs' compiler threads took over the same window: on shared target CPUs
     *                        one JVM's compiling is noise in another's block (docs/steady-state.md, "Quiet blocks"); null where unknown
     */
    public record Resources(Double cpuMsPerRequest, Double rssMb, Double gcMs, Double jitMs, Double canaryUs, Double compilerCpuMs,
                            Double othersCompilerCpuMs) {
        Resources withCpu(Double cpuMsPerRequest) {
            return new Resources(cpuMsPerRequest, rssMb, gcMs, jitMs, canaryUs, compilerCpuMs, othersCompilerCpuMs);
        }

        /** Every target JVM's compiler threads over the block's window, % of one CPU; null where either part is unknown. */
        public Double compilerPct(double seconds) {
            return compilerPct(compilerCpuMs, othersCompilerCpuMs, seconds);
        }

        /** Compiler threads' CPU of {@code ms} and {@code othersMs} over a window of {@code seconds}, % of one CPU; null where unknown. */
        public static Double compilerPct(Double ms, Double othersMs, double seconds) {
            return ms == null || othersMs == null || seconds <= 0 ? null : (ms + othersMs) / (seconds * 10);
        }
    }

    /**
     * One agent's part of a block run on several (docs/scale-out.md, "Paired rounds on agents").
     *
     * @param requests its users' requests sent in the block's measured window
     * @param inFlight the requests it kept in flight over that window, each by its time inside it (Little's law)
     * @param lateMs   how late its gate opened after the block's scheduled start, on the lab's clock, within {@code clockErrorMs}
     * @param clockOffsetMs its clock's offset from the lab's (its clock minus the lab's), as it read it before its load
     * @param clockErrorMs  that reading's error: half its round trip
     */
    public record AgentFigures(String agent, long requests, long responses, double inFlight, double lateMs, double clockOffsetMs, double clockErrorMs) {
    }

    /**
     * A block of a whole shape (docs/guide.md, "Shapes in rounds"): what its target went through, read each second.
     *
     * @param peakRssMb   the target's most resident memory over the block; null where never read
     * @param peakThreads its most OS threads over the block; null where never read
     * @param errors      its requests' errors by cause; null without one
     * @param died        how it died in the block; null when it survived it
     * @param recovery    how long after the shape's peak its latency came back; null where not judged (it died, or the shape
     *                    has no stages)
     */
    public record Shape(Double peakRssMb, Integer peakThreads, Result.ErrorCounts errors, Death died, Recovery recovery) {
    }

    /**
     * A block's recovery after its shape's peak (docs/statistics.md, "Recovery after the peak").
     *
     * @param lightP99Ms the target's p99 under light load: the median of its seconds' before the shape passed a quarter of its
     *                   peak's users
     * @param peakS      when the peak ended (the load first fell from its most users), in seconds into the block
     * @param afterS     how long after the peak every second's p99 stayed within twice {@code lightP99Ms}; null when that never
     *                   came before the block ended
     */
    public record Recovery(double lightP99Ms, double peakS, Double afterS) {
    }

    /**
     * A target's death in its block: the block's outcome, left out of every comparison but survival's (docs/statistics.md,
     * "Survival").
     *
     * @param cause     what ended it, from its log or cgroup ("out of heap (heap 512m): java.lang.OutOfMemoryError: Java heap
     *                  space") and how it exited
     * @param seconds   how far into the block it was last seen alive
     * @param rssMb     its resident memory at its last reading alive; null without one
     * @param threads   its OS threads then
     * @param openFiles its open files then (its connections, mostly); null where the OS does not tell
     */
    public record Death(String cause, double seconds, Double rssMb, Integer threads, Long openFiles) {
    }

    /** The same block of a whole shape, with what its target went through; null for another block. */
    public BlockRecord withShape(Shape s) {
        return new BlockRecord(turn, load, latency, resources, flows, categories, agents, s);
    }

    /** The same block as if another target's, in another set: a regression gate's A/A check compares a target's two sets so. */
    public BlockRecord as(String target, int set) {
        return new BlockRecord(new Turn(turn.scenario(), turn.cell(), set, turn.round(), turn.position(), target), load, latency, resources, flows,
                categories, agents, shape);
    }

    /** Whether its target died in it. */
    public boolean died() {
        return shape != null && shape.died() != null;
    }

    public static BlockBuilder builder() {
        return new BlockBuilder();
    }

    /**
     * One flow over a block: what the comparisons of the flow and of its steps read (docs/results-schema.md).
     *
     * @param completed iterations sent in the block that went through every step
     * @param failed    iterations a step ended
     * @param rps       completed iterations per second of the send window
     * @param p50       the completed iterations' median latency, ms; null without one
     * @param meanMs    their mean latency: a user's cycle through the flow
     */
    public record FlowFigures(String flow, long completed, long failed, double rps, Double p50, Double p99, Double meanMs, List<StepFigures> steps) {
        public FlowFigures {
            steps = List.copyOf(steps);
        }
    }

    /**
     * One step of a flow over a block.
     *
     * @param request  as the step reads: {@code POST /items}
     * @param failures its failed requests and responses, by every cause (its errors, unexpected statuses, missing values)
     * @param rps      its responses (any status) per second of the send window
     */
    public record StepFigures(String step, String request, long responses, long failures, double rps, Double p50, Double p99) {
    }

    /**
     * The block as one part of its scenario measured it, for the comparisons of that part: a flow's iterations or a step's
     * requests in place of the block's requests together; null when the block has no such part. The block's users, in
     * flight and think time stay the block's: Little's law judges the block, and an open model's schedule is the block's, so a part
     * has none. The user's cycle ({@code meanMs}, which
     * {@link #rpsResolution()} reads) is the flow's for the flow and for each of its steps, and only the whole has a CPU
     * per request, except a flow that is its whole scenario.
     */
    public BlockRecord view(ScenarioPart part) {
        if (part.isWhole()) {
            return this;
        }
        FlowFigures f = flows == null ? null : flows.stream().filter(x -> x.flow().equals(part.flow())).findFirst().orElse(null);
        if (f == null) {
            return null;
        }
        if (part.step() == null) {
            return new BlockRecord(turn, load.counted(f.completed(), f.completed(), f.failed(), f.rps()), new BlockLatency(f.p50(), f.p99(), f.meanMs()),
                    part.standsForScenario(turn.scenario()) ? resources : resources.withCpu(null), null, null, agents, shape);
        }
        StepFigures s = f.steps().stream().filter(x -> x.step().equals(part.step())).findFirst().orElse(null);
        return s == null ? null : new BlockRecord(turn, load.counted(s.responses(), s.responses(), s.failures(), s.rps()),
                new BlockLatency(s.p50(), s.p99(), f.meanMs()), resources.withCpu(null), null, null, agents, shape);
    }

    /** The same block with the JVM's JIT time since its previous block. */
    public BlockRecord withJitMs(Double ms) {
        Resources r = resources;
        return new BlockRecord(turn, load, latency, new Resources(r.cpuMsPerRequest(), r.rssMb(), r.gcMs(), ms, r.canaryUs(), r.compilerCpuMs(), r.othersCompilerCpuMs()), flows, categories, agents, shape);
    }

    /** The same block with its samples per CPU profile category. */
    public BlockRecord withCategories(Map<String, Long> samples) {
        return new BlockRecord(turn, load, latency, resources, flows, samples, agents, shape);
    }

    /** How far apart the agents' gates opened in this block, ms; null on one driver. */
    public Double alignmentMs() {
        if (agents == null || agents.isEmpty()) {
            return null;
        }
        return agents.stream().mapToDouble(AgentFigures::lateMs).max().orElseThrow() - agents.stream().mapToDouble(AgentFigures::lateMs).min().orElseThrow();
    }

    /** The parts of its scenario these blocks measured: those of the first block with flows, else the whole alone. */
    public static List<ScenarioPart> parts(List<BlockRecord> blocks) {
        Map<String, Map<String, String>> shape = new LinkedHashMap<>();
        blocks.stream().filter(b -> b.flows() != null && !b.flows().isEmpty()).findFirst().ifPresent(b -> b.flows().forEach(f -> {
            Map<String, String> steps = new LinkedHashMap<>();
            f.steps().forEach(s -> steps.put(s.step(), s.request()));
            shape.put(f.flow(), steps);
        }));
        return ScenarioPart.of(shape);
    }

    /** Which block it is, as most readers ask: its turn's scenario, cell, set, round and target. */
    public String scenario() {
        return turn.scenario();
    }

    public Map<String, Integer> cell() {
        return turn.cell();
    }

    public int set() {
        return turn.set();
    }

    public int round() {
        return turn.round();
    }

    public String target() {
        return turn.target();
    }

    /** The scenario and, in a sweep, the cell: what the blocks of one comparison share. */
    public String where() {
        return where(turn.scenario(), turn.cell());
    }

    /** "json", or in a sweep "json users=50". */
    public static String where(String scenario, Map<String, Integer> cell) {
        if (cell == null || cell.isEmpty()) {
            return scenario;
        }
        StringBuilder sb = new StringBuilder(scenario);
        cell.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }

    /** An open model's block that sent fewer than 95% of its scheduled arrivals: its latencies miss the ones it could not send. */
    public boolean behindSchedule() {
        return load.intended() != null && load.intended() > 0 && load.requests() < 0.95 * load.intended();
    }

    /**
     * Users in a request or in a pause (Little's law over the whole cycle: throughput x (latency +
     * think)); without think time, the busy users.
     */
    public Double cyclingUsers() {
        BlockLoad l = load;
        return l.inFlight() == null || l.thinkMs() == null ? l.inFlight() : l.inFlight() + l.rps() * l.thinkMs() / 1000;
    }

    /**
     * How far a closed model's throughput may be off for counting whole requests, as a share of it. A block's
     * users start together and cycle in step, so the window's end cuts every user's last request at the same
     * point, and {@link dev.loomflux.lab.driver.WindowShare}, which knows send times only to the second,
     * counts it as if sent anywhere in its second: up to half a request, plus half the share of a second a
     * cycle lasts, per user, the same way in every round (docs/statistics.md, "Counting whole requests").
     * 0 for an open model, whose arrivals keep their own schedule.
     */
    public double rpsResolution() {
        BlockLoad l = load;
        if (l.users() == null || l.requests() <= 0) {
            return 0;
        }
        double cycleS = ((latency.meanMs() == null ? 0 : latency.meanMs()) + (l.thinkMs() == null ? 0 : l.thinkMs())) / 1000;
        return l.users() * (0.5 + Math.min(1, cycleS) / 2) / l.requests();
    }

    /** The block's figure of a metric the rounds compare, or null when it has none. */
    public Double figure(Metric m) {
        return switch (m) {
            case THROUGHPUT -> load.rps();
            case P50 -> latency.p50();
            case P99 -> latency.p99();
            case CPU_PER_REQUEST -> resources.cpuMsPerRequest();
            default -> throw new IllegalArgumentException("rounds do not compare " + m.id());
        };
    }
}
