package dev.loomflux.lab.paired;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.verdict.Stopping;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * The sequential rule at work during the rounds: at each look, the blocks so far as results.json would hold them, judged by
 * {@link Stopping}; once it says stop, no further round starts.
 */
final class Looks {
    private final Stopping stopping;
    private final Function<List<Block>, List<BlockRecord>> records;
    /** The first measured round, -1 while the lead-in goes on. */
    private final IntSupplier measuredFrom;
    private final long deadline;
    private final List<Block> ended = Collections.synchronizedList(new ArrayList<>());
    private volatile int lastRound = Integer.MAX_VALUE;
    private long firstStart = -1;

    /**
     * @param records  the blocks as results.json holds them
     * @param deadline when the rounds should have ended, epoch ms; Long.MAX_VALUE for no time budget
     */
    Looks(Stopping stopping, Function<List<Block>, List<BlockRecord>> records, IntSupplier measuredFrom, long deadline) {
        this.stopping = stopping;
        this.records = records;
        this.measuredFrom = measuredFrom;
        this.deadline = deadline;
    }

    /** A block ended; after a round's last block at a look, judge the rounds so far. */
    void ended(Block b, int targets) {
        ended.add(b);
        int leadInRounds = measuredFrom.getAsInt();
        if (leadInRounds < 0) {
            return;
        }
        if (b.round() == leadInRounds && firstStart < 0) {
            firstStart = b.startMs();
        }
        int measured = b.round() + 1 - leadInRounds;
        if (b.position() != targets - 1 || measured <= 0 || !stopping.isLook(measured)) {
            return;
        }
        long now = System.currentTimeMillis();
        double perRound = firstStart < 0 ? 0 : (now - firstStart) / 1000.0 / measured;
        double left = deadline == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : (deadline - now) / 1000.0;
        Stopping.Seen seen = stopping.look(measured, records.apply(List.copyOf(ended)), perRound, left);
        if (seen.stop() != null) {
            lastRound = b.round();
        }
    }

    /** Whether round {@code round} may start. */
    boolean more(int round) {
        return round <= lastRound;
    }
}
