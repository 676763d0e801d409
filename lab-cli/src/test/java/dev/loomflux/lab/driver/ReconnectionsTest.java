package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loomflux.lab.experiment.LoadProfile;
import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reconnections add up as the rest of the statistics do: by second into a load's measurement, by block into each block. */
class ReconnectionsTest {
    private static final long T0 = 1_800_000_000_000L;

    /** One second of a phase's statistics: {@code responses} answered, {@code closed} of them closing their connection. */
    private static StatisticsSnapshot second(long startMs, int responses, int closed) {
        StatisticsSnapshot s = new StatisticsSnapshot();
        s.histogram.setStartTimeStamp(startMs);
        s.requestCount = responses;
        s.responseCount = responses;
        for (int i = 0; i < responses; i++) {
            s.histogram.recordValue(1_000_000);
        }
        Reconnections.add(s, closed);
        return s;
    }

    @Test
    void aSnapshotCountsItsOwnAndTheOnesAddedToIt() {
        StatisticsSnapshot none = new StatisticsSnapshot();
        assertEquals(0, Reconnections.in(none));
        StatisticsSnapshot total = new StatisticsSnapshot();
        total.add(second(T0, 100, 2));
        total.add(none);
        total.add(second(T0 + 1000, 100, 3));
        assertEquals(5, Reconnections.in(total));
        StatisticsSnapshot copy = total.clone();
        Reconnections.add(total, 1);
        assertEquals(5, Reconnections.in(copy), "a copy keeps its own count");
        assertEquals(6, Reconnections.in(total));
    }

    @Test
    void aLoadsMeasurementHoldsTheReconnectionsOfItsSeconds() {
        PhasePlan plan = PhasePlan.of(new LoadProfile.Fixed(2, Duration.ofSeconds(3)), 1);
        Tally tally = new Tally(plan, s -> { }, null, 10_000);
        tally.start(T0);
        tally.add("fixed", PhasePlan.METRIC, second(T0 + 5, 300, 3));
        tally.add("fixed", PhasePlan.METRIC, second(T0 + 1005, 300, 0));
        tally.add("fixed", PhasePlan.METRIC, second(T0 + 2005, 300, 2));
        // A late response of the first second comes as another sample of it.
        tally.add("fixed", PhasePlan.METRIC, second(T0 + 5, 1, 1));
        Measurement m = tally.finish(T0 + 3000);
        assertEquals(901, m.responses());
        assertEquals(6, m.reconnections());
        assertEquals(0, m.errors().total(), "a reconnection is no error");
    }

    @Test
    void eachBlockHoldsTheReconnectionsOfItsOwnRequests() {
        List<Rounds.Target> targets = List.of(new Rounds.Target("closes", URI.create("http://127.0.0.1:9000")),
                new Rounds.Target("keeps", URI.create("http://127.0.0.1:9001")));
        Rounds rounds = new Rounds(targets, "/", new LoadProfile.Fixed(2, Duration.ofSeconds(2)), List.of(List.of(0, 1), List.of(1, 0)), 1,
                Duration.ofSeconds(10), Duration.ofSeconds(1));
        List<Block> ended = new ArrayList<>();
        BlockTally tally = new BlockTally(rounds, new Rounds.Listener() {
            @Override
            public void started(String target, int round) {
            }

            @Override
            public void ended(Block block) {
                ended.add(block);
            }
        }, 0);
        long at = T0;
        for (String phase : rounds.sequence()) {
            boolean closes = phase.startsWith(PhasePlan.phaseName(0));
            tally.phase(phase, PhaseInstance.Status.RUNNING, at);
            // The lead-in's second is loaded but not measured: its reconnections are not the block's.
            tally.add(phase, PhasePlan.METRIC, second(at, 100, closes ? 4 : 0));
            tally.add(phase, PhasePlan.METRIC, second(at + 1000, 100, closes ? 1 : 0));
            tally.phase(phase, PhaseInstance.Status.FINISHED, at + 2000);
            tally.phase(phase, PhaseInstance.Status.TERMINATED, at + 2010);
            at += 3000;
        }
        assertEquals(4, ended.size());
        for (Block b : ended) {
            assertEquals(100, b.responses(), b.toString());
            assertEquals(b.target().equals("closes") ? 1 : 0, b.reconnections(), b.target() + " in round " + b.round());
        }
        assertEquals(ended, tally.blocks());
    }
}
