package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.BlockTally;
import dev.loomflux.lab.driver.Rounds;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.loomflux.lab.LabException;
import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The lab's side of JMeter's interleaved rounds ({@link JmeterPlan#renderRounds}), the one conductor of every
 * JMeter that runs them: one local JMeter, or each agent. Each JMeter's conductor asks here for the next block
 * ({@code GET /next}: "TARGET START END" on the lab's clock, or "done") and reports its end ({@code GET /ended}:
 * the target, the requests its users sent, when its gate opened, closed and had every response, on its own clock).
 * The lab answers the asking conductors together, once every one has asked, with a start a little ahead so that the
 * answer reaches each before it; a block is counted once every agent has reported it and the lab has read that many
 * of each agent's requests from the results file (a watermark per agent), so the next block starts only after this
 * one is counted, and the listener hears of each block as it starts and ends. For a load of flows a conductor counts
 * iterations, and the lab reads that many flow samples ({@link SampleMetrics}), each written after its steps.
 * Listens on the address the JMeters reach the lab at: 127.0.0.1 for JMeters on this host.
 */
final class JmeterRounds implements AutoCloseable {
    private sealed interface Event permits Next, Ended {
        CompletableFuture<String> answer();
    }

    private record Next(int agent, long offsetUs, long rttUs, CompletableFuture<String> answer) implements Event {
    }

    private record Ended(int agent, int target, long sent, long startMs, long sendEndMs, long endMs, CompletableFuture<String> answer) implements Event {
    }

    /**
     * How far ahead of a block's start the lab answers several agents: the answer must reach each before the start, or that
     * agent's gate opens late (each block records by how much). One agent starts at once, as one JMeter always did.
     */
    static final long LEAD_MS = 50;

    private final Rounds rounds;
    private final SampleMetrics metrics;
    private final BlockTally tally;
    private final HttpServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "loomflux-jmeter-rounds");
        t.setDaemon(true);
        return t;
    });
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Deque<int[]> sequence = new ArrayDeque<>();
    /** The agents' addresses as JMeter leads their thread names with them; empty for one local JMeter. */
    private final List<String> agents;
    private final int conductors;
    /** Per agent and target: requests read from the results file, not yet counted into a block. */
    private final Map<String, List<Jtl.Sample>> unassigned = new HashMap<>();
    private final Map<Integer, Next> asking = new HashMap<>();
    private final Map<Integer, Ended> reported = new HashMap<>();
    /** Per agent: its clock's offset from the lab's (its clock minus the lab's), ms, as its conductor read it, and that reading's error (half its round trip). */
    private final double[] offsetMs;
    private final double[] offsetErrorMs;
    private final long[] lastHeard;
    /** Whether each conductor has asked for a block yet. */
    private final boolean[] asked;
    private final Map<String, List<Block.AgentPart>> parts = new HashMap<>();
    private final Rounds.Listener listener;
    private int blocks;
    private int ended;
    private String current;
    private int currentTarget = -1;
    private int currentRound = -1;
    /** The current block's start and end on the lab's clock, as the conductors were told. */
    private long scheduledStart;
    private long allReportedAt;

    /**
     * @param host   the address the JMeters reach the lab at
     * @param agents the agents' addresses, as the controller reached them; empty for one local JMeter
     */
    JmeterRounds(Rounds rounds, Rounds.Listener listener, String host, List<String> agents) {
        this.rounds = rounds;
        this.metrics = SampleMetrics.of(rounds.mix());
        this.tally = new BlockTally(rounds, listener, 0);
        this.listener = listener;
        this.agents = List.copyOf(agents);
        this.conductors = Math.max(1, agents.size());
        this.offsetMs = new double[conductors];
        this.offsetErrorMs = new double[conductors];
        this.lastHeard = new long[conductors];
        java.util.Arrays.fill(lastHeard, System.currentTimeMillis());
        this.asked = new boolean[conductors];
        for (int r = 0; r < rounds.order().size(); r++) {
            for (int t : rounds.order().get(r)) {
                sequence.add(new int[] {r, t});
            }
        }
        this.blocks = sequence.size();
        try {
            server = HttpServer.create(new InetSocketAddress(host, 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(handlers);
        server.createContext("/next", exchange -> {
            Map<String, Long> q = query(exchange.getRequestURI(), "agent", "offset_us", "rtt_us");
            answer(exchange, new Next(agent(q), q.get("offset_us"), q.get("rtt_us"), new CompletableFuture<>()));
        });
        server.createContext("/ended", exchange -> {
            Map<String, Long> q = query(exchange.getRequestURI(), "agent", "target", "sent", "start", "sendEnd", "end");
            answer(exchange, new Ended(agent(q), q.get("target").intValue(), q.get("sent"), q.get("start"), q.get("sendEnd"), q.get("end"),
                    new CompletableFuture<>()));
        });
        server.start();
    }

    /** Where the conductors reach the lab: the plan's {@link JmeterPlan#LAB}. */
    URI address() {
        return URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort());
    }

    /** Every block has ended. */
    boolean over() {
        return ended == blocks;
    }

    /** The blocks that ended, each with its agents' parts on agents. */
    List<Block> blocks() {
        return tally.blocks().stream().map(b -> agents.isEmpty() ? b : b.withAgents(parts.getOrDefault(b.target() + "/" + b.round(), List.of()))).toList();
    }

    /** A conductor the lab waited for longer than its patience: {@code who} names it, {@code patienceMs} is what it had. */
    record Quiet(String who, long patienceMs) {
    }

    /**
     * The conductor that has gone quiet for longer than {@code patienceMs} while the lab waited for it (to ask for the next
     * block, or to report the one it runs); null while every one answers. One that never asked yet is still starting
     * (JMeter's controller, the plan sent to its agent, the agent's start of it) and has {@code startMs}.
     */
    Quiet silent(long patienceMs, long startMs) {
        long now = System.currentTimeMillis();
        for (int a = 0; a < conductors; a++) {
            long patience = asked[a] ? patienceMs : Math.max(patienceMs, startMs);
            if (!asking.containsKey(a) && !reported.containsKey(a) && now - lastHeard[a] > patience) {
                return new Quiet(agents.isEmpty() ? "JMeter's conductor" : "agent " + agents.get(a), patience);
            }
        }
        return null;
    }

    /** The block the rounds are in, in words: "mvc's block in round 7 of 19 (lead-in rounds counted)". */
    String where() {
        return currentTarget < 0 ? "before the first block"
                : rounds.targets().get(currentTarget).name() + "'s block in round " + (currentRound + 1) + " of " + rounds.order().size() + " (lead-in rounds counted)";
    }

    /** Requests read from the results file, kept until their block ends. */
    void add(List<Jtl.Sample> samples) {
        for (Jtl.Sample s : samples) {
            int agent = agentOf(s.thread());
            String thread = agent < 0 ? s.thread() : s.thread().substring(agents.isEmpty() ? 0 : agents.get(agent).length() + 1);
            String group = thread.replaceFirst(" \\d+-\\d+$", "");
            if (agent >= 0 && group.startsWith(JmeterRoundsPlan.ROUNDS_GROUP) && group.substring(JmeterRoundsPlan.ROUNDS_GROUP.length()).matches("\\d+")) {
                unassigned.computeIfAbsent(agent + "/" + group.substring(JmeterRoundsPlan.ROUNDS_GROUP.length()), k -> new ArrayList<>()).add(s);
            }
        }
    }

    /** Answers what the conductors asked since, waiting at most {@code waitMs} for one to ask. */
    void step(long waitMs) throws InterruptedException {
        Event e = events.poll(waitMs, TimeUnit.MILLISECONDS);
        for (; e != null; e = events.poll()) {
            long now = System.currentTimeMillis();
            if (e instanceof Next n) {
                lastHeard[n.agent()] = now;
                asked[n.agent()] = true;
                offsetMs[n.agent()] = n.offsetUs() / 1000.0;
                offsetErrorMs[n.agent()] = n.rttUs() / 2000.0;
                asking.put(n.agent(), n);
                if (asking.size() == conductors) {
                    startNext(now);
                }
            } else if (e instanceof Ended d) {
                lastHeard[d.agent()] = now;
                if (d.target() != currentTarget) {
                    throw new LabException("JMeter's conductor ended a block of target " + d.target() + " while " + currentTarget + " ran");
                }
                reported.put(d.agent(), d);
                if (reported.size() == conductors) {
                    allReportedAt = now;
                }
            }
        }
        settle();
    }

    /** Every conductor asked: the next block for all, or "done". */
    private void startNext(long now) {
        // A round's first block: the rounds may stop before it (a sequential run's stop).
        if (!sequence.isEmpty() && sequence.peek()[1] == rounds.order().get(sequence.peek()[0]).get(0) && !listener.more(sequence.peek()[0])) {
            blocks -= sequence.size();
            sequence.clear();
        }
        if (sequence.isEmpty()) {
            asking.values().forEach(n -> n.answer().complete("done"));
            asking.clear();
            return;
        }
        int[] next = sequence.poll();
        current = Rounds.phase(next[1], next[0]);
        currentTarget = next[1];
        currentRound = next[0];
        scheduledStart = now + (conductors == 1 ? 0 : LEAD_MS);
        long end = scheduledStart + rounds.block().plannedDuration().toMillis();
        tally.phase(current, PhaseInstance.Status.RUNNING, scheduledStart);
        asking.values().forEach(n -> n.answer().complete(next[1] + " " + scheduledStart + " " + end));
        heard(asking.keySet(), now);
        asking.clear();
    }

    /**
     * Counts the current block once every conductor reported it and each agent's requests are all read; after the longest a
     * request may take and a few seconds more, with what was read (JMeter writes a request's row after its sampler's last
     * step). A request sent after its agent's gate closed belongs to the target's next block. A load of flows counts whole
     * iterations: every one that passed the gate in the block, its steps sent before the block's end or after it, and the
     * target's users send nothing more until its next block, which starts only once this one is counted. Each agent's
     * requests are moved onto the lab's clock by its offset, and counted in the seconds from the block's start there.
     */
    private void settle() {
        if (reported.size() < conductors) {
            return;
        }
        boolean flows = rounds.mix() != null;
        boolean waited = System.currentTimeMillis() - allReportedAt >= rounds.requestTimeout().toMillis() + 5_000;
        for (Ended d : reported.values()) {
            long inBlock = own(d).stream().filter(s -> flows ? metrics.isFlow(s) : s.startMs() >= d.startMs() && s.startMs() <= d.sendEndMs()).count();
            if (inBlock < d.sent() && !waited) {
                return;
            }
        }
        Map<String, TreeMap<Long, StatisticsSnapshot>> bySecond = new TreeMap<>();
        Map<Integer, List<Jtl.Sample>> counted = new TreeMap<>();
        long sendEnd = Long.MIN_VALUE;
        long end = Long.MIN_VALUE;
        for (Ended d : reported.values()) {
            long shift = -Math.round(offsetMs[d.agent()]);
            List<Jtl.Sample> later = new ArrayList<>();
            for (Jtl.Sample s : own(d)) {
                if (!flows && s.startMs() > d.sendEndMs()) {
                    later.add(s);
                    continue;
                }
                Jtl.Sample lab = s.shifted(shift);
                counted.computeIfAbsent(d.agent(), k -> new ArrayList<>()).add(lab);
                long second = second(lab);
                metrics.count(lab, metric -> bySecond.computeIfAbsent(metric, k -> new TreeMap<>()).computeIfAbsent(second, Jmeter::second));
            }
            unassigned.put(d.agent() + "/" + d.target(), later);
            sendEnd = Math.max(sendEnd, d.sendEndMs() + shift);
            end = Math.max(end, d.endMs() + shift);
        }
        bySecond.forEach((label, seconds) -> seconds.values().forEach(s -> tally.add(current, label, s)));
        if (!agents.isEmpty()) {
            // Before the block is handed on (TERMINATED), so that whoever hears of it can find its parts.
            parts.put(rounds.targets().get(currentTarget).name() + "/" + currentRound, agentParts(counted, sendEnd));
        }
        tally.phase(current, PhaseInstance.Status.FINISHED, sendEnd);
        tally.phase(current, PhaseInstance.Status.TERMINATED, end);
        ended++;
        reported.values().forEach(d -> d.answer().complete("ok"));
        // The lab kept them waiting for its count: their patience starts now.
        heard(reported.keySet(), System.currentTimeMillis());
        reported.clear();
    }

    /**
     * Each agent's part of the block over its measured window (after the lead-in, as the block's own figures): the requests its
     * users sent there, their responses, how many it kept in flight (each request by its time inside the window, Little's law)
     * and how late its gate opened after the scheduled start.
     */
    private List<Block.AgentPart> agentParts(Map<Integer, List<Jtl.Sample>> counted, long sendEnd) {
        long from = scheduledStart + rounds.leadIn().toMillis();
        double window = Math.max(1, sendEnd - from);
        List<Block.AgentPart> out = new ArrayList<>();
        for (int a = 0; a < conductors; a++) {
            Ended d = reported.get(a);
            long requests = 0;
            long responses = 0;
            double busy = 0;
            for (Jtl.Sample s : counted.getOrDefault(a, List.of())) {
                // Filed as the block files it: a request sent a moment before the start (an agent's clock off within its error) in its first second.
                if (second(s) < from || metrics.isFlow(s)) {
                    continue;
                }
                requests++;
                responses += Jmeter.status(s) >= 0 ? 1 : 0;
                busy += Math.max(0, Math.min(s.endMs(), sendEnd) - Math.max(s.startMs(), from));
            }
            double late = d.startMs() - offsetMs[a] - scheduledStart;
            out.add(new Block.AgentPart(agents.get(a), requests, responses, busy / window, Math.round(late * 10) / 10.0, offsetMs[a], offsetErrorMs[a]));
        }
        return out;
    }

    /** The second of the block a request on the lab's clock is counted in, by its send time: from the block's start. */
    private long second(Jtl.Sample onLabClock) {
        return scheduledStart + Math.max(0, Math.floorDiv(onLabClock.startMs() - scheduledStart, 1000L)) * 1000L;
    }

    private void heard(java.util.Set<Integer> agents, long now) {
        agents.forEach(a -> lastHeard[a] = now);
    }

    private List<Jtl.Sample> own(Ended d) {
        return unassigned.getOrDefault(d.agent() + "/" + d.target(), List.of());
    }

    /** The agent whose address leads a thread's name: 0 for one local JMeter, -1 for a thread of no agent's. */
    private int agentOf(String thread) {
        if (agents.isEmpty()) {
            return 0;
        }
        for (int a = 0; a < agents.size(); a++) {
            if (thread.startsWith(agents.get(a) + "-")) {
                return a;
            }
        }
        return -1;
    }

    private int agent(Map<String, Long> q) {
        long a = q.get("agent");
        if (a < 0 || a >= conductors) {
            throw new IllegalArgumentException("no agent " + a);
        }
        return (int) a;
    }

    private void answer(HttpExchange exchange, Event event) throws IOException {
        events.add(event);
        String body;
        try {
            body = event.answer().get();
        } catch (Exception e) {
            body = "done";
        }
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static Map<String, Long> query(URI uri, String... keys) {
        Map<String, Long> out = new HashMap<>();
        for (String pair : String.valueOf(uri.getRawQuery()).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(eq + 1).matches("-?\\d{1,19}")) {
                out.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
            }
        }
        for (String key : keys) {
            if (!out.containsKey(key)) {
                throw new IllegalArgumentException("no " + key + " in " + uri);
            }
        }
        return out;
    }

    @Override
    public void close() {
        // A conductor still waiting hears "done" and ends its JMeter's test; JMeter itself is stopped by its caller.
        events.forEach(e -> e.answer().complete("done"));
        asking.values().forEach(n -> n.answer().complete("done"));
        reported.values().forEach(d -> d.answer().complete("done"));
        // A second for the handlers to send those answers.
        server.stop(1);
        handlers.shutdownNow();
    }
}
