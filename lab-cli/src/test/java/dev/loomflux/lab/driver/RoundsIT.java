package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.experiment.Profile;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Interleaved rounds against two real stubs: every block whole, in order, and each on its own target. */
class RoundsIT {
    @Test
    void blocksRunInOrderOnTheirOwnTargetsAndLoseNoResponse() throws Exception {
        try (Stub a = Stub.start(); Stub b = Stub.start()) {
            Rounds rounds = new Rounds(List.of(new Rounds.Target("a", a.base()), new Rounds.Target("b", b.base())), "/delay?ms=20",
                    new Profile.Fixed(20, Duration.ofSeconds(2)), Rounds.shuffled(2, 5, 11), 1, Duration.ofSeconds(10));
            long servedA = a.served();
            long servedB = b.served();
            List<String> started = new CopyOnWriteArrayList<>();
            List<Block> blocks = LoadDriver.run(rounds, new Rounds.Listener() {
                @Override
                public void started(String target, int round) {
                    started.add(target + "/" + round);
                }

                @Override
                public void ended(Block block) {
                }
            });
            assertEquals(10, blocks.size(), blocks.toString());
            for (int i = 0; i < blocks.size(); i++) {
                Block blk = blocks.get(i);
                int round = i / 2;
                assertEquals(round, blk.round());
                assertEquals(rounds.targets().get(rounds.order().get(round).get(i % 2)).name(), blk.target(), "block " + i + " runs as planned");
                assertEquals(blk.target() + "/" + blk.round(), started.get(i));
                assertEquals(blk.requests(), blk.responses(), "every request sent in the block is answered within it: " + blk);
                assertEquals(0, blk.errors().total());
                assertTrue(blk.seconds() >= 1.95 && blk.seconds() <= 2.2, "send window " + blk.seconds());
                // Little's law, per block: 20 users, each always waiting for one response.
                double users = blk.rps() * blk.latency().getMean() / 1e9;
                assertTrue(Math.abs(users - 20) <= 0.4, "throughput x mean latency = " + users + " of 20 users in " + blk);
                if (i > 0) {
                    assertTrue(blk.startMs() >= blocks.get(i - 1).endMs(), "blocks do not overlap");
                }
            }
            // Each stub served exactly its own blocks.
            assertEquals(blocks.stream().filter(x -> x.target().equals("a")).mapToLong(Block::responses).sum(), a.served() - servedA);
            assertEquals(blocks.stream().filter(x -> x.target().equals("b")).mapToLong(Block::responses).sum(), b.served() - servedB);
        }
    }
}
