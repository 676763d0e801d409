package dev.loomflux.lab.run;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.driver.Errors;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.MeasuredWindow;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.driver.WindowShare;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;

/**
 * Runs the rounds it is given without a request: each block, in the rounds' order, is 100 responses of 1 ms in 1 s,
 * said to the listener as a real driver says it. A cancel ends the rounds before the next block, keeping the blocks
 * that ended; before each block a test may kill a JVM or stop the run ({@link BeforeBlock}).
 */
final class FakeDriver implements LoadDriver {
    /** What happens as a block is about to start: in the middle of the rounds. */
    interface BeforeBlock {
        void at(Rounds rounds, String target, int round);
    }

    private final List<String> events;
    private BeforeBlock beforeBlock = (rounds, target, round) -> { };
    private volatile boolean cancelled;
    private long clockMs = 1_000_000L;

    FakeDriver(List<String> events) {
        this.events = events;
    }

    void beforeBlock(BeforeBlock b) {
        beforeBlock = b;
    }

    @Override
    public DriverType type() {
        return new dev.loomflux.lab.driver.FakeDriver.Type();
    }

    /** The designs load in rounds only; one load of its own is a procedure's, faked with the procedure. */
    @Override
    public Measurement run(LoadSpec spec, SecondListener listener, BooleanSupplier enough, MeasuredWindow window) {
        throw new UnsupportedOperationException("no single load in a design's test");
    }

    @Override
    public List<Block> run(Rounds rounds, Rounds.Listener listener) {
        cancelled = false;
        List<Block> ended = new ArrayList<>();
        for (int round = 0; round < rounds.order().size(); round++) {
            if (!listener.more(round)) {
                return ended;
            }
            List<Integer> order = rounds.order().get(round);
            for (int position = 0; position < order.size(); position++) {
                String target = rounds.targets().get(order.get(position)).name();
                beforeBlock.at(rounds, target, round);
                if (cancelled) {
                    return ended;
                }
                listener.started(target, round);
                events.add("block " + target + " round " + round);
                Block b = block(target, round, position, rounds.block().peakUsers());
                ended.add(b);
                listener.ended(b);
            }
        }
        return ended;
    }

    /** A second of {@code users} each always in a 1 ms request: Little's law holds, so no block reads as paced by the load side. */
    private Block block(String target, int round, int position, int users) {
        long requests = users * 1000L;
        Histogram latency = new Histogram(3);
        latency.recordValueWithCount(1_000_000, requests);
        long start = clockMs;
        clockMs += 1000;
        return new Block(target, round, position, start, clockMs, requests, requests, new WindowShare(requests, requests), new Errors(0, 0, 0, 0, 0), 0,
                latency, List.of((double) requests), -1);
    }

    @Override
    public void cancel() {
        cancelled = true;
    }

    @Override
    public Plan export(LoadSpec spec, String name) {
        return new Plan(".fake.yaml", "");
    }

    @Override
    public Plan export(Rounds rounds, String name) {
        return new Plan(".fake.yaml", "");
    }
}
