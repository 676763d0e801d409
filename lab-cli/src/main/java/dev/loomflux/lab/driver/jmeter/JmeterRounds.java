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
import java.net.InetAddress;
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
 * The lab's side of JMeter's interleaved rounds ({@link JmeterPlan#renderRounds}): JMeter's conductor asks
 * here for the next block ({@code GET /next}: "TARGET MS" or "done") and reports each block's end
 * ({@code GET /ended}: the target, the requests sent, when it started, stopped sending and had every
 * response); the answer to the report waits until the lab has read that many of the block's requests from
 * the results file, so the next block starts only after this one is counted, and the listener hears of
 * each block as it starts and ends. For a load of flows the conductor counts iterations, and the lab reads
 * that many flow samples ({@link SampleMetrics}), each written after its steps. Listens on 127.0.0.1 only:
 * JMeter runs on this host.
 */
final class JmeterRounds implements AutoCloseable {
    private sealed interface Event permits Next, Ended {
    }

    private record Next(CompletableFuture<String> answer) implements Event {
    }

    private record Ended(int target, long sent, long startMs, long sendEndMs, long endMs, CompletableFuture<String> answer) implements Event {
    }

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
    /** Per target: its requests read from the results file, not yet counted into a block. */
    private final Map<Integer, List<Jtl.Sample>> unassigned = new HashMap<>();
    private final Rounds.Listener listener;
    private int blocks;
    private int ended;
    private String current;
    private int currentTarget = -1;
    private Ended pending;
    private long pendingSince;
    private long lastHeard = System.currentTimeMillis();

    JmeterRounds(Rounds rounds, Rounds.Listener listener) {
        this.rounds = rounds;
        this.metrics = SampleMetrics.of(rounds.mix());
        this.tally = new BlockTally(rounds, listener, 0);
        this.listener = listener;
        for (int r = 0; r < rounds.order().size(); r++) {
            for (int t : rounds.order().get(r)) {
                sequence.add(new int[] {r, t});
            }
        }
        this.blocks = sequence.size();
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(handlers);
        server.createContext("/next", exchange -> answer(exchange, new Next(new CompletableFuture<>())));
        server.createContext("/ended", exchange -> {
            Map<String, Long> q = query(exchange.getRequestURI());
            answer(exchange, new Ended(q.get("target").intValue(), q.get("sent"), q.get("start"), q.get("sendEnd"), q.get("end"), new CompletableFuture<>()));
        });
        server.start();
    }

    /** Where JMeter's conductor reaches the lab: the plan's {@link JmeterPlan#LAB}. */
    URI address() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** When the conductor last asked or reported, epoch ms. */
    long lastHeard() {
        return lastHeard;
    }

    /** Every block has ended. */
    boolean over() {
        return ended == blocks;
    }

    List<Block> blocks() {
        return tally.blocks();
    }

    /** Requests read from the results file, kept until their block ends. */
    void add(List<Jtl.Sample> samples) {
        for (Jtl.Sample s : samples) {
            String group = s.thread().replaceFirst(" \\d+-\\d+$", "");
            if (group.startsWith(JmeterPlan.ROUNDS_GROUP) && group.substring(JmeterPlan.ROUNDS_GROUP.length()).matches("\\d+")) {
                unassigned.computeIfAbsent(Integer.parseInt(group.substring(JmeterPlan.ROUNDS_GROUP.length())), k -> new ArrayList<>()).add(s);
            }
        }
    }

    /** Answers what the conductor asked since, waiting at most {@code waitMs} for it to ask. */
    void step(long waitMs) throws InterruptedException {
        Event e = events.poll(waitMs, TimeUnit.MILLISECONDS);
        for (; e != null; e = events.poll()) {
            lastHeard = System.currentTimeMillis();
            if (e instanceof Next n) {
                // A round's first block: the rounds may stop before it (a sequential run's stop).
                if (!sequence.isEmpty() && sequence.peek()[1] == rounds.order().get(sequence.peek()[0]).get(0) && !listener.more(sequence.peek()[0])) {
                    blocks -= sequence.size();
                    sequence.clear();
                }
                if (sequence.isEmpty()) {
                    n.answer().complete("done");
                    continue;
                }
                int[] next = sequence.poll();
                current = Rounds.phase(next[1], next[0]);
                currentTarget = next[1];
                tally.phase(current, PhaseInstance.Status.RUNNING, System.currentTimeMillis());
                n.answer().complete(next[1] + " " + rounds.block().plannedDuration().toMillis());
            } else if (e instanceof Ended d) {
                if (d.target() != currentTarget) {
                    throw new LabException("JMeter's conductor ended a block of target " + d.target() + " while " + currentTarget + " ran");
                }
                pending = d;
                pendingSince = System.currentTimeMillis();
            }
        }
        settle();
    }

    /**
     * Counts the pending block once its requests are all read; after the longest a request may take and a few
     * seconds more, with what was read (JMeter writes a request's row after its sampler's last step). A request
     * sent after the block belongs to the target's next one. A load of flows counts whole iterations: every one
     * that passed the gate in the block, its steps sent before the block's end or after it, and the target's
     * users send nothing more until its next block, which starts only once this one is counted.
     */
    private void settle() {
        if (pending == null) {
            return;
        }
        boolean flows = rounds.mix() != null;
        List<Jtl.Sample> own = unassigned.getOrDefault(pending.target(), List.of());
        long inBlock = own.stream().filter(s -> flows ? metrics.isFlow(s) : s.startMs() >= pending.startMs() && s.startMs() <= pending.sendEndMs()).count();
        if (inBlock < pending.sent() && System.currentTimeMillis() - pendingSince < rounds.requestTimeout().toMillis() + 5_000) {
            return;
        }
        Map<String, TreeMap<Long, StatisticsSnapshot>> bySecond = new TreeMap<>();
        List<Jtl.Sample> later = new ArrayList<>();
        for (Jtl.Sample s : own) {
            if (!flows && s.startMs() > pending.sendEndMs()) {
                later.add(s);
                continue;
            }
            long second = pending.startMs() + Math.max(0, Math.floorDiv(s.startMs() - pending.startMs(), 1000L)) * 1000L;
            metrics.count(s, metric -> bySecond.computeIfAbsent(metric, k -> new TreeMap<>()).computeIfAbsent(second, Jmeter::second));
        }
        unassigned.put(pending.target(), later);
        bySecond.forEach((label, seconds) -> seconds.values().forEach(s -> tally.add(current, label, s)));
        tally.phase(current, PhaseInstance.Status.FINISHED, pending.sendEndMs());
        tally.phase(current, PhaseInstance.Status.TERMINATED, pending.endMs());
        ended++;
        pending.answer().complete("ok");
        pending = null;
    }

    private void answer(HttpExchange exchange, Event event) throws IOException {
        CompletableFuture<String> answer = event instanceof Next n ? n.answer() : ((Ended) event).answer();
        events.add(event);
        String body;
        try {
            body = answer.get();
        } catch (Exception e) {
            body = "done";
        }
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static Map<String, Long> query(URI uri) {
        Map<String, Long> out = new HashMap<>();
        for (String pair : String.valueOf(uri.getRawQuery()).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(eq + 1).matches("-?\\d{1,19}")) {
                out.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
            }
        }
        for (String key : List.of("target", "sent", "start", "sendEnd", "end")) {
            if (!out.containsKey(key)) {
                throw new IllegalArgumentException("no " + key + " in " + uri);
            }
        }
        return out;
    }

    @Override
    public void close() {
        // A conductor still waiting hears "done"; JMeter itself is stopped by its caller.
        events.forEach(e -> (e instanceof Next n ? n.answer() : ((Ended) e).answer()).complete("done"));
        if (pending != null) {
            pending.answer().complete("done");
        }
        server.stop(0);
        handlers.shutdownNow();
    }
}
