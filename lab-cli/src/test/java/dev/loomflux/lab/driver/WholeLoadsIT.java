package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Rounds whose blocks are whole shapes, against two real stubs: each block the whole ramp and hold on its own target, in the
 * planned order, every request answered, each stub serving its own blocks and nothing else.
 */
class WholeLoadsIT {
    private static final Rounds.Listener QUIET = new Rounds.Listener() {
        @Override
        public void started(String target, int round) {
        }

        @Override
        public void ended(Block block) {
        }
    };

    @Test
    void everyBlockIsTheWholeShapeOnItsOwnTarget() throws Exception {
        try (Stub a = Stub.start(); Stub b = Stub.start()) {
            // 0 -> 10 users over 1 s, then 10 users for 2 s: 8.3 users on average, each always waiting for a 20 ms response.
            LoadProfile shape = new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(1), 10), new LoadProfile.Stage(Duration.ofSeconds(2), 10)),
                    Think.NONE);
            Rounds rounds = new Rounds(List.of(new Rounds.Target("a", a.base()), new Rounds.Target("b", b.base())), "/delay?ms=20", shape,
                    Rounds.shuffled(2, 3, 5), 1, Duration.ofSeconds(10), Duration.ZERO);
            assertTrue(rounds.wholeLoads());
            long servedA = a.served();
            long servedB = b.served();
            List<Long> seconds = new ArrayList<>();
            List<Block> blocks = WholeLoads.run(new Hyperfoil(), rounds, QUIET, new WholeLoads.Lives() {
                @Override
                public URI before(String target, int round) {
                    return (target.equals("a") ? a : b).base();
                }

                @Override
                public boolean alive(String target) {
                    return true;
                }

                @Override
                public void seconds(String target, int round, LoadProfile profile, List<Second> series) {
                    assertSame(shape, profile);
                    seconds.add(series.stream().mapToLong(Second::requests).sum());
                }
            });
            assertEquals(6, blocks.size(), blocks.toString());
            for (int i = 0; i < blocks.size(); i++) {
                assertEquals(blocks.get(i).requests(), seconds.get(i), 0.02 * blocks.get(i).requests(), "block " + i + "'s seconds handed over as it ended: " + seconds);
            }
            for (int i = 0; i < blocks.size(); i++) {
                Block blk = blocks.get(i);
                assertEquals(i / 2, blk.round());
                assertEquals(rounds.targets().get(rounds.order().get(i / 2).get(i % 2)).name(), blk.target(), "block " + i + " runs as planned");
                assertEquals(blk.requests(), blk.responses(), blk.toString());
                assertEquals(0, blk.errors().total());
                assertTrue(blk.seconds() >= 2.9 && blk.seconds() <= 3.6, "the whole 3 s shape: " + blk.seconds());
                double users = blk.rps() * blk.latency().getMean() / 1e9;
                assertTrue(users > 6.5 && users < 10, "throughput x mean latency = " + users + " users, about 8.3 over the shape: " + blk);
                if (i > 0) {
                    assertTrue(blk.startMs() >= blocks.get(i - 1).endMs() - 50, "blocks do not overlap");
                }
            }
            for (String t : List.of("a", "b")) {
                long measured = blocks.stream().filter(x -> x.target().equals(t)).mapToLong(Block::responses).sum();
                long served = t.equals("a") ? a.served() - servedA : b.served() - servedB;
                assertEquals(measured, served, t + ": the stub served its own blocks' requests and no others");
            }
        }
    }

    @Test
    void aTargetThatDiesEndsItsBlockAndItsNextBlockLoadsAFreshOne() throws Exception {
        try (Stub a = Stub.start(); Stub b = Stub.start(); Stub fresh = Stub.start()) {
            // 6 s shapes: b is killed 1.5 s into its first block, which ends within a second of it; its next block loads the fresh stub.
            LoadProfile shape = new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(1), 10), new LoadProfile.Stage(Duration.ofSeconds(5), 10)),
                    Think.NONE);
            Rounds rounds = new Rounds(List.of(new Rounds.Target("a", a.base()), new Rounds.Target("b", b.base())), "/delay?ms=20", shape,
                    List.of(List.of(1, 0), List.of(0, 1)), 1, Duration.ofSeconds(10), Duration.ZERO);
            ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor();
            List<String> befores = new ArrayList<>();
            try {
                List<Block> blocks = WholeLoads.run(new Hyperfoil(), rounds, new Rounds.Listener() {
                    @Override
                    public void started(String target, int round) {
                        if (target.equals("b") && round == 0) {
                            killer.schedule(() -> {
                                b.close();
                                return null;
                            }, 1500, TimeUnit.MILLISECONDS);
                        }
                    }

                    @Override
                    public void ended(Block block) {
                    }
                }, new WholeLoads.Lives() {
                    @Override
                    public URI before(String target, int round) {
                        befores.add(target + "/" + round);
                        return target.equals("a") ? a.base() : b.alive() ? b.base() : fresh.base();
                    }

                    @Override
                    public boolean alive(String target) {
                        return !target.equals("b") || b.alive() || befores.contains("b/1");
                    }

                    @Override
                    public void seconds(String target, int round, LoadProfile profile, List<Second> series) {
                    }
                });
                assertEquals(List.of("b/0", "a/0", "a/1", "b/1"), befores, "asked before every block, in order");
                assertEquals(4, blocks.size(), blocks.toString());
                Block died = blocks.get(0);
                assertEquals("b", died.target());
                assertTrue(died.seconds() >= 1.4 && died.seconds() <= 3.5, "the block ended within about a second of the death: " + died.seconds());
                assertTrue(died.responses() > 100, died.toString());
                Block after = blocks.get(3);
                assertTrue(after.seconds() >= 5.9, "the whole shape on the fresh one: " + after.seconds());
                assertEquals(0, after.errors().total(), after.toString());
                assertEquals(after.responses(), fresh.served(), "the fresh stub served b's next block, and only it");
            } finally {
                killer.shutdownNow();
            }
        }
    }
}
