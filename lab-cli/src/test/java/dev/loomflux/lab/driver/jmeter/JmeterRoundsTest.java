package dev.loomflux.lab.driver.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.FlowMeasurement;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The lab's side of JMeter's rounds of flows, with the conductor's requests as JMeter's conductor sends them and the
 * rows of its results file as JMeter writes them: a block holds the iterations that passed its gate, whole, and is
 * counted once the lab has read as many flow transactions as the conductor counted iterations.
 */
class JmeterRoundsTest {
    private static final Mix CRUD = new Mix("crud", 1, List.of(new Flow("crud", 1, List.of(
            new FlowStep("create", FlowStep.Method.POST, "/items", Map.of(), "{}", null, new FlowStep.Expect(201, 201),
                    List.of(new FlowStep.Extract("id", FlowStep.Extract.Source.JSON, "$.id")), Think.NONE),
            new FlowStep("read", FlowStep.Method.GET, "/items/${id}", Map.of(), null, null, new FlowStep.Expect(200, 200), List.of(), Think.NONE)),
            Map.of(), null)));

    private final HttpClient client = HttpClient.newHttpClient();

    private static Jtl.Sample row(long t0, String label, long atMs, long tookMs, String code, boolean success, String user) {
        return row(t0, "", label, atMs, tookMs, code, success, user);
    }

    /** A row of the agent whose address is {@code agent} ("" for one JMeter), which leads its thread names. */
    private static Jtl.Sample row(long t0, String agent, String label, long atMs, long tookMs, String code, boolean success, String user) {
        return new Jtl.Sample(t0 + atMs, tookMs, code, success, (agent.isEmpty() ? "" : agent + "-") + "t0 1-" + user, 100, 100, 2, 0, "", label, "", false);
    }

    /** The block's start and end on the lab's clock, as the lab answered "TARGET START END". */
    private static long[] block(String answer) {
        String[] p = answer.split(" ");
        assertEquals("0", p[0], answer);
        return new long[] {Long.parseLong(p[1]), Long.parseLong(p[2])};
    }

    private CompletableFuture<HttpResponse<String>> ask(JmeterRounds lab, String pathAndQuery) {
        return client.sendAsync(HttpRequest.newBuilder(lab.address().resolve(pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String answer(JmeterRounds lab, CompletableFuture<HttpResponse<String>> asked) throws Exception {
        while (!asked.isDone()) {
            lab.step(20);
        }
        return asked.get().body();
    }

    @Test
    void aBlockOfFlowsHoldsItsIterationsWholeAndEndsOnceTheirTransactionsAreRead() throws Exception {
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181"))), "/items", new LoadProfile.Fixed(2, Duration.ofSeconds(2)),
                List.of(List.of(0)), 1, Duration.ofSeconds(10), Duration.ZERO, CRUD);
        List<Block> told = new ArrayList<>();
        try (JmeterRounds lab = new JmeterRounds(rounds, listener(told), "127.0.0.1", List.of())) {
            long[] at = block(answer(lab, ask(lab, "/next?agent=0&offset_us=0&rtt_us=0")));
            long t0 = at[0];
            assertEquals(2000, at[1] - at[0], "one JMeter starts its block at once, for the block's length");
            // Three iterations passed the gate in the block's 2 s: user 1's two whole ones, the second read after the block's
            // end; user 2's create failed (no id), which ended its iteration.
            List<Jtl.Sample> rows = List.of(
                    row(t0, "create", 1, 10, "201", true, "1"), row(t0, "read", 11, 10, "200", true, "1"), row(t0, "crud", 0, 21, "200", true, "1"),
                    row(t0, "create", 5, 10, "201", false, "2"), row(t0, "crud", 4, 11, "", false, "2"),
                    row(t0, "create", 1_980, 10, "201", true, "1"), row(t0, "read", 2_010, 10, "200", true, "1"));
            CompletableFuture<HttpResponse<String>> ended = ask(lab, "/ended?agent=0&target=0&sent=3&start=" + t0 + "&sendEnd=" + (t0 + 2_000) + "&end=" + (t0 + 2_020));
            lab.add(rows);
            for (int i = 0; i < 10; i++) {
                lab.step(20);
            }
            assertFalse(ended.isDone(), "two of the three iterations read: the last transaction's row follows its steps'");
            lab.add(List.of(row(t0, "crud", 1_979, 41, "200", true, "1")));
            assertEquals("ok", answer(lab, ended));
            assertEquals("done", answer(lab, ask(lab, "/next?agent=0&offset_us=0&rtt_us=0")));

            Block b = lab.blocks().get(0);
            assertEquals(List.of(b), told);
            assertEquals(5, b.requests(), "the steps' rows, the read after the block's end among them");
            FlowMeasurement crud = b.flows().get(0);
            assertEquals(2, crud.completed());
            assertEquals(1, crud.failed());
            assertEquals(1, crud.steps().get(0).missing());
            assertEquals(List.of(3L, 2L), crud.steps().stream().map(s -> s.requests()).toList());
            assertEquals(31, crud.latency().getMean() / 1e6, 0.5, "21 and 41 ms");
        }
    }

    private static Rounds.Listener listener(List<Block> told) {
        return new Rounds.Listener() {
            @Override
            public void started(String target, int round) {
            }

            @Override
            public void ended(Block block) {
                told.add(block);
            }
        };
    }

    /**
     * Two agents, one whose clock runs 250 ms ahead of the lab's: both hear the same block, to start a little ahead, once both
     * asked; the block waits for the second agent's report and for each agent's requests, and counts each agent's on the lab's
     * clock, with its part, Little's law over the window and how late its gate opened.
     */
    @Test
    void twoAgentsRunOneBlockTogetherCountedOnceEachAgentsRequestsAreRead() throws Exception {
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181"))), "/json", new LoadProfile.Fixed(4, Duration.ofSeconds(2)),
                List.of(List.of(0)), 1, Duration.ofSeconds(10), Duration.ZERO);
        List<Block> told = new ArrayList<>();
        String first = "127.0.0.1:1099";
        String second = "127.0.0.1:1100";
        try (JmeterRounds lab = new JmeterRounds(rounds, listener(told), "127.0.0.1", List.of(first, second))) {
            CompletableFuture<HttpResponse<String>> askFirst = ask(lab, "/next?agent=0&offset_us=0&rtt_us=0");
            for (int i = 0; i < 10; i++) {
                lab.step(20);
            }
            assertFalse(askFirst.isDone(), "the first agent waits until the second has asked");
            long before = System.currentTimeMillis();
            CompletableFuture<HttpResponse<String>> askSecond = ask(lab, "/next?agent=1&offset_us=250000&rtt_us=400");
            long[] at = block(answer(lab, askSecond));
            assertEquals(askSecond.get().body(), answer(lab, askFirst), "both agents run the same block at the same time");
            assertTrue(at[0] >= before + JmeterRounds.LEAD_MS, "the start is ahead of the answer, for it to reach both");
            long t0 = at[0];
            // The first agent's two users each take 100 ms a request, the second's (its clock 250 ms ahead) 200 ms and it opened its
            // gate 30 ms late; a request after the second agent's gate closed belongs to its next block.
            List<Jtl.Sample> rows = new ArrayList<>();
            for (long t = 0; t < 2_000; t += 100) {
                rows.add(row(t0, first, "json", t, 100, "200", true, "1"));
                rows.add(row(t0, first, "json", t, 100, "200", true, "2"));
            }
            for (long t = 30; t < 2_000; t += 200) {
                rows.add(row(t0 + 250, second, "json", t, 200, "200", true, "1"));
                rows.add(row(t0 + 250, second, "json", t, 200, "200", true, "2"));
            }
            rows.add(row(t0 + 250, second, "json", 2_100, 200, "200", true, "1"));
            CompletableFuture<HttpResponse<String>> endedFirst = ask(lab, "/ended?agent=0&target=0&sent=40&start=" + t0 + "&sendEnd=" + (t0 + 2_000)
                    + "&end=" + (t0 + 2_000));
            lab.add(rows.subList(0, 40));
            for (int i = 0; i < 10; i++) {
                lab.step(20);
            }
            assertFalse(endedFirst.isDone(), "the block waits for the second agent's report");
            assertEquals(null, lab.silent(60_000, 60_000));
            long shifted = t0 + 250;
            CompletableFuture<HttpResponse<String>> endedSecond = ask(lab, "/ended?agent=1&target=0&sent=20&start=" + (shifted + 30) + "&sendEnd="
                    + (shifted + 2_000) + "&end=" + (shifted + 2_030));
            for (int i = 0; i < 10; i++) {
                lab.step(20);
            }
            assertFalse(endedSecond.isDone(), "the second agent's requests are not read yet: its watermark holds the block");
            lab.add(rows.subList(40, rows.size()));
            assertEquals("ok", answer(lab, endedSecond));
            assertEquals("ok", endedFirst.get().body());

            Block b = lab.blocks().get(0);
            assertEquals(60, b.requests(), "40 of the first agent, 20 of the second, the one after its gate closed not");
            assertEquals(4, b.inFlight(), 0.2, "Little's law over the block, both agents' users together (the block counts requests by their second)");
            assertEquals(t0, b.startMs(), "the block's seconds count from its start on the lab's clock");
            assertEquals(2, b.agents().size());
            Block.AgentPart p1 = b.agents().get(0);
            Block.AgentPart p2 = b.agents().get(1);
            assertEquals(first, p1.agent());
            assertEquals(40, p1.requests());
            assertEquals(20, p2.requests());
            assertEquals(2, p1.inFlight(), 0.05);
            assertEquals(2, p2.inFlight(), 0.1, "the second agent's users, on the lab's clock");
            assertEquals(0, p1.lateMs(), 0.01);
            assertEquals(30, p2.lateMs(), 0.01, "its gate opened 30 ms after the start, on the lab's clock");
            assertEquals(250, p2.clockOffsetMs(), 0.001);
            assertEquals(0.2, p2.clockErrorMs(), 0.001, "half the reading's round trip");
        }
    }

    /** An agent that stops answering in a block is named, once the lab has waited longer than its patience for it. */
    @Test
    void anAgentThatGoesQuietIsNamed() throws Exception {
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181"))), "/json", new LoadProfile.Fixed(4, Duration.ofSeconds(1)),
                List.of(List.of(0), List.of(0)), 1, Duration.ofSeconds(10), Duration.ZERO);
        try (JmeterRounds lab = new JmeterRounds(rounds, listener(new ArrayList<>()), "127.0.0.1", List.of("h1:1099", "h2:1099"))) {
            CompletableFuture<HttpResponse<String>> one = ask(lab, "/next?agent=0&offset_us=0&rtt_us=0");
            CompletableFuture<HttpResponse<String>> two = ask(lab, "/next?agent=1&offset_us=0&rtt_us=0");
            long[] at = block(answer(lab, one));
            answer(lab, two);
            ask(lab, "/ended?agent=0&target=0&sent=0&start=" + at[0] + "&sendEnd=" + at[1] + "&end=" + at[1]);
            for (int i = 0; i < 10; i++) {
                lab.step(20);
            }
            assertEquals(null, lab.silent(5_000, 5_000), "within its patience");
            Thread.sleep(300);
            assertEquals(new JmeterRounds.Quiet("agent h2:1099", 200), lab.silent(200, 60_000), "h2 never reported the block it ran (it asked for it: no more starting); h1 waits for the lab");
            assertEquals("a's block in round 1 of 2 (lead-in rounds counted)", lab.where());
        }
    }

    /** A conductor that never asked (its agent still starting the test) has the start's patience, not a block's. */
    @Test
    void anAgentStillStartingHasTheStartsPatience() throws Exception {
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181"))), "/json", new LoadProfile.Fixed(4, Duration.ofSeconds(1)),
                List.of(List.of(0)), 1, Duration.ofSeconds(10), Duration.ZERO);
        try (JmeterRounds lab = new JmeterRounds(rounds, listener(new ArrayList<>()), "127.0.0.1", List.of("h1:1099", "h2:1099"))) {
            CompletableFuture<HttpResponse<String>> one = ask(lab, "/next?agent=0&offset_us=0&rtt_us=0");
            Thread.sleep(300);
            for (int i = 0; i < 10; i++) {
                lab.step(20);
            }
            assertFalse(one.isDone(), "no block before both asked");
            assertEquals(null, lab.silent(200, 60_000), "h2 is still starting: past a block's patience, within the start's");
            assertEquals(new JmeterRounds.Quiet("agent h2:1099", 300), lab.silent(200, 300), "past the start's patience too");
            assertEquals("before the first block", lab.where());
        }
    }
}
