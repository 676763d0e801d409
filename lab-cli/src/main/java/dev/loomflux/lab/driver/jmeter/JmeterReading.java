package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.AgentCpuUse;
import dev.loomflux.lab.driver.AgentShare;
import dev.loomflux.lab.driver.FlowMetrics;
import dev.loomflux.lab.driver.MeasuredWindow;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.driver.Tally;
import dev.loomflux.lab.experiment.Mix;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One load's samples as they come in: every request (and, for flows, every iteration) into the load's statistics
 * under its metrics ({@link SampleMetrics}) and, with agents, into its agent's too; each agent's send times moved
 * onto the lab's clock by the offset it read.
 */
final class JmeterReading {
    private static final Pattern CLOCK = Pattern.compile("offset_us=(-?\\d+);rtt_us=(\\d+)");

    final Tally all;
    private final SampleMetrics metrics;
    private final FlowMetrics flows;
    private final PhasePlan plan;
    private final MeasuredWindow window;
    private final long timeoutMs;
    private final List<String> agents;
    private final Map<String, Tally> byAgent = new HashMap<>();
    /** Per agent, the users it last reported alive, and their sum. */
    private final Map<String, Integer> threads = new HashMap<>();
    private int allThreads;
    /** Per agent: offset and error, ms. */
    private final Map<String, double[]> clocks = new HashMap<>();
    long started = -1;
    /**
     * The longest a request took from its send to the lab's read, ms: JMeter writes a request once it ends, after
     * an agent's RMI brought it to the controller, so a second is whole only that long after it.
     */
    private long latestMs;
    /**
     * Per agent, the latest end of a request of its read so far, on the lab's clock: an agent sends its samples in batches
     * (once a second, or when its load pauses), each holding every request that ended before it was sent, so every request
     * of that agent that ended before this has been read.
     */
    private final Map<String, Long> watermarks = new HashMap<>();
    /** The longest a request took, ms: a request sent before a watermark may end that long after it. */
    private long longestMs;

    /**
     * @param mix      the load's flows, null for one request per iteration
     * @param listener hears of the load's seconds
     */
    JmeterReading(PhasePlan plan, Mix mix, SecondListener listener, MeasuredWindow window, long timeoutMs, List<String> agents) {
        this.metrics = SampleMetrics.of(mix);
        this.flows = mix == null ? null : new FlowMetrics(mix);
        this.all = new Tally(plan, listener, window, timeoutMs, flows);
        this.plan = plan;
        this.window = window;
        this.timeoutMs = timeoutMs;
        this.agents = agents;
    }

    /** A request and the agent that sent it ("" without agents). */
    private record Sent(String agent, Jtl.Sample sample) {
    }

    long timeoutMs() {
        return timeoutMs;
    }

    /** @param readAtMs when the lab read them, on its clock */
    void add(List<Jtl.Sample> samples, long readAtMs) {
        List<Sent> requests = new ArrayList<>();
        for (Jtl.Sample s : samples) {
            String agent = agentOf(s.thread());
            if (JmeterPlan.CLOCK.equals(s.label())) {
                Matcher m = CLOCK.matcher(s.message());
                if (m.find()) {
                    clocks.put(agent, new double[] {Long.parseLong(m.group(1)) / 1000.0, Long.parseLong(m.group(2)) / 2000.0});
                }
                continue;
            }
            double[] clock = clocks.get(agent);
            Jtl.Sample onLabClock = clock == null ? s : s.shifted(-Math.round(clock[0]));
            requests.add(new Sent(agent, onLabClock));
            latestMs = Math.max(latestMs, readAtMs - onLabClock.startMs());
            longestMs = Math.max(longestMs, onLabClock.elapsedMs());
            watermarks.merge(agent, onLabClock.endMs(), Math::max);
        }
        if (requests.isEmpty()) {
            return;
        }
        if (started < 0) {
            started = requests.stream().mapToLong(r -> r.sample().startMs()).min().orElseThrow();
            all.start(started);
        }
        Map<String, StatisticsSnapshot> bySecond = new HashMap<>();
        for (Sent r : requests) {
            String agent = r.agent();
            Jtl.Sample s = r.sample();
            long second = Math.floorDiv(s.startMs() - started, 1000L);
            String group = s.thread().substring(agent.isEmpty() ? 0 : agent.length() + 1).replaceFirst(" \\d+-\\d+$", "");
            metrics.count(s, metric -> bySecond.computeIfAbsent(agent + "\n" + group + "\n" + metric + "\n" + second,
                    k -> Jmeter.second(started + second * 1000L)));
            Integer before = threads.put(agent, s.allThreads());
            allThreads += s.allThreads() - (before == null ? 0 : before);
            all.users(s.endMs(), allThreads);
            if (!agent.isEmpty()) {
                agentTally(agent).users(s.endMs(), s.allThreads());
            }
        }
        bySecond.forEach((key, snapshot) -> {
            String[] parts = key.split("\n");
            all.add(parts[1], parts[2], snapshot);
            if (!parts[0].isEmpty()) {
                agentTally(parts[0]).add(parts[1], parts[2], snapshot);
            }
        });
    }

    /**
     * Hands the listener the seconds whose requests have all been read ({@link #readUpTo}): a second's requests are in the
     * results file only once they end and reach the controller. With two agents on a busy machine requests took 2.8-3.3 s
     * over a 20 ms stub, and the second handed over 3 s after its start held 123 of its 200; a second told before a
     * starved agent's first batch held 2 of its 400 (docs/scale-out.md).
     */
    void publishLive(long now) {
        if (started >= 0) {
            all.publishLive(readUpTo(now));
        }
    }

    /** The load can end: its window's requests have all been read, however late they reach the lab. */
    boolean done(MeasuredWindow window, BooleanSupplier enough, long now) {
        // An agent silent for longer than a request may take holds nothing back: it has stopped (its own CPU check says why).
        return started >= 0 && all.done(window, enough, Math.max(readUpTo(now), now - timeoutMs - 5_000));
    }

    /**
     * Up to when every request sent is read, on the lab's clock: the latest request's delay from send to read before now and,
     * with agents, every agent's watermark less the longest a request took (and 50 ms for JMeter's threads, which hand their
     * samples on in no strict order). An agent not heard from yet holds every second back for as long as a request may take;
     * later it is one that runs none of the load (fewer users than agents).
     */
    private long readUpTo(long now) {
        long upTo = now - latestMs;
        for (String a : agents) {
            Long w = watermarks.get(a);
            if (w != null) {
                upTo = Math.min(upTo, w - longestMs - 50);
            } else if (now - started < timeoutMs) {
                upTo = Math.min(upTo, started);
            }
        }
        return upTo;
    }

    private Tally agentTally(String agent) {
        return byAgent.computeIfAbsent(agent, a -> {
            Tally t = new Tally(plan, s -> { }, window, timeoutMs, flows);
            t.start(started);
            return t;
        });
    }

    /** JMeter leads an agent's thread names with the address the controller reached it at; "" without agents. */
    private String agentOf(String thread) {
        for (String a : agents) {
            if (thread.startsWith(a + "-")) {
                return a;
            }
        }
        return "";
    }

    /** @param cpu what the agents reported of their CPU; null without agents */
    Measurement finish(long end, AgentCpu cpu) {
        Measurement m = all.finish(end);
        if (agents.isEmpty()) {
            return m;
        }
        // The agents' CPU over the measured seconds, as the lab's own is judged.
        boolean windowed = window != null && window.from() >= 0;
        long from = windowed ? started + window.from() * 1000L : started;
        long to = windowed ? Math.min(end, from + window.seconds() * 1000L) : end;
        List<AgentShare> parts = new ArrayList<>();
        for (String a : agents) {
            Tally t = byAgent.get(a);
            Measurement part = t == null ? null : t.finish(end);
            double[] clock = clocks.getOrDefault(a, new double[] {Double.NaN, Double.NaN});
            AgentCpuUse use = cpu == null ? null : cpu.over(a, from, to, Double.isNaN(clock[0]) ? 0 : clock[0]);
            if (part == null || part.latency().getTotalCount() == 0) {
                parts.add(new AgentShare(a, part == null ? 0 : part.requests(), 0, 0, 0, clock[0], clock[1], Double.NaN, Double.NaN, use, List.of()));
            } else {
                parts.add(new AgentShare(a, part.requests(), part.responses(), part.throughput(), part.inFlight(), clock[0], clock[1],
                        part.latency().getValueAtPercentile(50) / 1e6, part.latency().getValueAtPercentile(99) / 1e6, use, part.intervals()));
            }
        }
        return m.withAgents(parts);
    }
}
