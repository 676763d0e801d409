package dev.loomflux.lab.driver;

import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import dev.loomflux.lab.driver.jmeter.Jmeter;
import dev.loomflux.lab.driver.jmeter.JmeterType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.process.LabProcesses;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Interleaved rounds against two real stubs: every block whole, in order, and each on its own target; and no round started
 * after the listener said the rounds stop (a sequential run's look: six rounds planned, five run).
 */
class RoundsIT {
    @Test
    void blocksRunInOrderOnTheirOwnTargetsAndLoseNoResponse() throws Exception {
        blocksRunInOrder(new Hyperfoil(), 0.4, 0);
    }

    /**
     * The same rounds on JMeter, conducted by the lab: each target's 20 users wait at a gate between their blocks.
     * JMeter's own time between a response and the next request (its samplers, listeners and the gate) leaves
     * its users a little less busy than Hyperfoil's; in the first round, a JMeter just started, 17.7 of the 20
     * (the lab's lead-in rounds are there for such a start).
     */
    @Test
    @Tag("slow") // ./check slow, in CI after ./check
    void jmeterRunsTheSameRounds() throws Exception {
        try (LabProcesses processes = new LabProcesses()) {
            blocksRunInOrder(new Jmeter(processes, JmeterType.home()), 2, 1);
        }
    }

    /**
     * @param littleUsers how far throughput x mean latency may be from the 20 users
     * @param fromRound   the first round held to Little's law
     */
    private static void blocksRunInOrder(LoadDriver driver, double littleUsers, int fromRound) throws Exception {
        try (Stub a = Stub.start(); Stub b = Stub.start()) {
            Rounds rounds = new Rounds(List.of(new Rounds.Target("a", a.base()), new Rounds.Target("b", b.base())), "/delay?ms=20",
                    new LoadProfile.Fixed(20, Duration.ofSeconds(3)), Rounds.shuffled(2, 6, 11), 1, Duration.ofSeconds(10), Duration.ofSeconds(1));
            long servedA = a.served();
            long servedB = b.served();
            List<String> started = new CopyOnWriteArrayList<>();
            List<Block> blocks = driver.run(rounds, new Rounds.Listener() {
                @Override
                public void started(String target, int round) {
                    started.add(target + "/" + round);
                }

                @Override
                public void ended(Block block) {
                }

                @Override
                public boolean more(int round) {
                    return round < 5;
                }
            });
            assertEquals(10, blocks.size(), "five of the six rounds, then the stop: " + blocks);
            assertEquals(10, started.size(), "no block of the sixth round started: " + started);
            for (int i = 0; i < blocks.size(); i++) {
                Block blk = blocks.get(i);
                int round = i / 2;
                assertEquals(round, blk.round());
                assertEquals(rounds.targets().get(rounds.order().get(round).get(i % 2)).name(), blk.target(), "block " + i + " runs as planned");
                assertEquals(blk.target() + "/" + blk.round(), started.get(i));
                assertEquals(blk.requests(), blk.responses(), "every request sent in the block's measured part is answered: " + blk);
                assertEquals(0, blk.errors().total());
                assertTrue(blk.seconds() >= 1.95 && blk.seconds() <= 2.2, "3 s of load, the first 1 s not measured: " + blk.seconds());
                assertEquals(2, blk.secondsRps().size(), blk.secondsRps().toString());
                // Little's law, per block: 20 users, each always waiting for one response.
                double users = blk.rps() * blk.latency().getMean() / 1e9;
                assertTrue(blk.round() < fromRound || Math.abs(users - 20) <= littleUsers, "throughput x mean latency = " + users + " of 20 users in " + blk);
                if (i > 0) {
                    assertTrue(blk.startMs() >= blocks.get(i - 1).endMs(), "blocks do not overlap");
                }
            }
            // Each stub served its own blocks only: their measured part, and the lead-in's ~1 s x 1,000 requests/s on top.
            for (String t : List.of("a", "b")) {
                long measured = blocks.stream().filter(x -> x.target().equals(t)).mapToLong(Block::responses).sum();
                long served = (t.equals("a") ? a.served() - servedA : b.served() - servedB) - measured;
                assertTrue(served > 5 * 500 && served < 5 * 1100, t + ": " + served + " lead-in requests in 5 blocks");
            }
        }
    }
}
