package dev.loomflux.lab.driver.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.FlowMeasurement;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.Profile;
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
    private static final long T0 = 1_800_000_000_000L;
    private static final Mix CRUD = new Mix("crud", 1, List.of(new Flow("crud", 1, List.of(
            new FlowStep("create", FlowStep.Method.POST, "/items", Map.of(), "{}", null, new FlowStep.Expect(201, 201),
                    List.of(new FlowStep.Extract("id", FlowStep.Extract.Source.JSON, "$.id")), Think.NONE),
            new FlowStep("read", FlowStep.Method.GET, "/items/${id}", Map.of(), null, null, new FlowStep.Expect(200, 200), List.of(), Think.NONE)),
            Map.of(), null)));

    private final HttpClient client = HttpClient.newHttpClient();

    private static Jtl.Sample row(String label, long atMs, long tookMs, String code, boolean success, String user) {
        return new Jtl.Sample(T0 + atMs, tookMs, code, success, "t0 1-" + user, 100, 100, 2, 0, "", label, "", false);
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
        Rounds rounds = new Rounds(List.of(new Rounds.Target("a", URI.create("http://127.0.0.1:8181"))), "/items", new Profile.Fixed(2, Duration.ofSeconds(2)),
                List.of(List.of(0)), 1, Duration.ofSeconds(10), Duration.ZERO, CRUD);
        List<Block> told = new ArrayList<>();
        try (JmeterRounds lab = new JmeterRounds(rounds, new Rounds.Listener() {
            @Override
            public void started(String target, int round) {
            }

            @Override
            public void ended(Block block) {
                told.add(block);
            }
        })) {
            assertEquals("0 2000", answer(lab, ask(lab, "/next")));
            // Three iterations passed the gate in the block's 2 s: user 1's two whole ones, the second read after the block's
            // end; user 2's create failed (no id), which ended its iteration.
            List<Jtl.Sample> rows = List.of(
                    row("create", 1, 10, "201", true, "1"), row("read", 11, 10, "200", true, "1"), row("crud", 0, 21, "200", true, "1"),
                    row("create", 5, 10, "201", false, "2"), row("crud", 4, 11, "", false, "2"),
                    row("create", 1_980, 10, "201", true, "1"), row("read", 2_010, 10, "200", true, "1"));
            CompletableFuture<HttpResponse<String>> ended = ask(lab, "/ended?target=0&sent=3&start=" + T0 + "&sendEnd=" + (T0 + 2_000) + "&end=" + (T0 + 2_020));
            lab.add(rows);
            for (int i = 0; i < 10; i++) {
                lab.step(20);
            }
            assertFalse(ended.isDone(), "two of the three iterations read: the last transaction's row follows its steps'");
            lab.add(List.of(row("crud", 1_979, 41, "200", true, "1")));
            assertEquals("ok", answer(lab, ended));
            assertEquals("done", answer(lab, ask(lab, "/next")));

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
}
