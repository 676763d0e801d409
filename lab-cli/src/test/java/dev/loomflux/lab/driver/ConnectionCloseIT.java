package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import dev.loomflux.lab.driver.jmeter.Jmeter;
import dev.loomflux.lab.driver.jmeter.JmeterType;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.process.LabProcesses;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A target that closes a kept-alive connection with every 100th response ({@code Connection: close}, as Tomcat's
 * {@code max-keep-alive-requests} does), its FIN 50 ms behind: no request fails, the driver opens a new connection
 * for each close, and counts each as a reconnection. Before the lab read that header, Hyperfoil reused such a
 * connection and counted one connection error per close (207 of 207 closes at 20 users).
 */
class ConnectionCloseIT {
    private static final int EVERY = 100;
    private static final long LINGER_MS = 50;

    private static void closesAreReconnections(LoadDriver driver, Duration duration) throws Exception {
        try (ClosingServer server = new ClosingServer(EVERY, LINGER_MS)) {
            Measurement m = driver.run(new LoadSpec(server.base(), "/", new LoadProfile.Fixed(20, duration), 1), null);
            String seen = m.responses() + " responses, " + server.closes() + " closes, " + m.reconnections() + " reconnections, " + m.errors();
            assertEquals(0, m.errors().total(), seen);
            assertEquals(m.requests(), m.responses(), seen);
            assertEquals(server.responses(), m.responses(), "every response the server sent was read: " + seen);
            assertTrue(server.closes() >= 5, "enough closes to count: " + seen);
            // Exactly the closes the server sent, which are one per 100 responses.
            assertEquals(server.closes(), m.reconnections(), seen);
            assertEquals(m.responses() / EVERY, m.reconnections(), seen);
        }
    }

    @Test
    void hyperfoilReconnectsAfterEveryClose() throws Exception {
        closesAreReconnections(new Hyperfoil(), Duration.ofSeconds(4));
    }

    @Test
    void jmeterReconnectsAfterEveryClose() throws Exception {
        try (LabProcesses processes = new LabProcesses()) {
            closesAreReconnections(new Jmeter(processes, JmeterType.home()), Duration.ofSeconds(5));
        }
    }

    /** In interleaved rounds, a block counts the closes of its own target only: the report can tell which target closes. */
    @Test
    void aBlockCountsTheReconnectionsOfItsOwnTarget() throws Exception {
        try (ClosingServer closes = new ClosingServer(EVERY, LINGER_MS); ClosingServer keeps = new ClosingServer(Integer.MAX_VALUE, 0)) {
            Rounds rounds = new Rounds(List.of(new Rounds.Target("closes", closes.base()), new Rounds.Target("keeps", keeps.base())), "/",
                    new LoadProfile.Fixed(20, Duration.ofSeconds(2)), Rounds.shuffled(2, 2, 5), 1, Duration.ofSeconds(10), Duration.ZERO);
            List<Block> blocks = new Hyperfoil().run(rounds, new Rounds.Listener() {
                @Override
                public void started(String target, int round) {
                }

                @Override
                public void ended(Block block) {
                }
            });
            assertEquals(4, blocks.size(), blocks.toString());
            for (Block b : blocks) {
                assertEquals(0, b.errors().total(), b.toString());
                assertEquals(b.requests(), b.responses(), b.toString());
            }
            List<Block> closing = blocks.stream().filter(b -> b.target().equals("closes")).toList();
            assertEquals(closes.closes(), closing.stream().mapToLong(Block::reconnections).sum(), closing.toString());
            assertTrue(closes.closes() >= 5, closes.closes() + " closes");
            assertEquals(0, blocks.stream().filter(b -> b.target().equals("keeps")).mapToLong(Block::reconnections).sum());
        }
    }
}
