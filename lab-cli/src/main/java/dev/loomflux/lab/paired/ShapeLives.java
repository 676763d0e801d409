package dev.loomflux.lab.paired;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.WholeLoads;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.measure.FlowResults;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.telemetry.Reading;
import dev.loomflux.lab.telemetry.ResourceReport;
import dev.loomflux.lab.telemetry.ResourceSampler;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JVMs of rounds of whole shapes: the target of each block read every second (its peak memory and threads, and how it
 * stood when last seen alive), its death the block's outcome, and a fresh JVM for its next block while the others go on
 * (docs/statistics.md, "Survival").
 */
final class ShapeLives implements WholeLoads.Lives, AutoCloseable {
    private final CellRounds rounds;
    /** Each block's shape, by label and round ("mvc-vt/3"). */
    private final Map<String, BlockRecord.Shape> shapes = new ConcurrentHashMap<>();
    /** The JVMs that ran a block, by label: with fresh JVMs asked for, each later block gets one. */
    private final Set<String> ran = ConcurrentHashMap.newKeySet();
    /** Each survived block's recovery after its shape's peak, where judged, by label and round. */
    private final Map<String, BlockRecord.Recovery> recoveries = new ConcurrentHashMap<>();
    /** The blocks a fresh JVM started for, by label and round. */
    private final Set<String> fresh = ConcurrentHashMap.newKeySet();
    /** The target of the block running now; null between blocks. */
    private volatile TargetVisit current;
    private final ResourceSampler sampler = new ResourceSampler()
            .watch(ResourceReport.TARGET, () -> current == null ? List.of() : List.of(current.pid())).start();

    ShapeLives(CellRounds rounds) {
        this.rounds = rounds;
    }

    @Override
    public URI before(String label, int round) {
        TargetVisit v = rounds.visit(label);
        if (!v.alive() || rounds.freshJvms() && ran.contains(label)) {
            v = rounds.revive(v, round);
            fresh.add(label + "/" + round);
        }
        ran.add(label);
        current = v;
        return v.base();
    }

    @Override
    public boolean alive(String label) {
        return rounds.visit(label).alive();
    }

    @Override
    public void seconds(String label, int round, LoadProfile shape, List<Second> series) {
        BlockRecord.Recovery r = rounds.visit(label).alive() ? PeakRecovery.of(shape, series) : null;
        if (r != null) {
            recoveries.put(label + "/" + round, r);
        }
    }

    /** Its block ended: the target's peaks over it and, if it died in it, how. */
    void ended(Block b) {
        TargetVisit v = current;
        current = null;
        List<Reading> seen = sampler.readings(ResourceReport.TARGET, b.startMs(), b.endMs() + ResourceSampler.PERIOD.toMillis());
        Reading last = seen.isEmpty() ? null : seen.get(seen.size() - 1);
        BlockRecord.Death death = v == null || v.alive() ? null : new BlockRecord.Death(firstLine(v.exited("in its block")),
                Result.round(((last == null ? b.startMs() : last.epochMs()) - b.startMs()) / 1000.0),
                last == null ? null : Result.round(last.rssMb()), last == null ? null : last.threads(), last == null || last.fds() < 0 ? null : last.fds());
        shapes.put(b.target() + "/" + b.round(), new BlockRecord.Shape(seen.isEmpty() ? null : Result.round(seen.stream().mapToDouble(Reading::rssMb).max().orElse(0)),
                seen.isEmpty() ? null : seen.stream().mapToInt(Reading::threads).max().orElse(0),
                b.errors().total() == 0 ? null : FlowResults.errors(b.errors(), List.of()), death, death == null ? recoveries.get(b.target() + "/" + b.round()) : null));
    }

    /**
     * Whether the block tells if the JITs are quiet: not when its target died in it, or started fresh for it. A target that a
     * shape kills is fresh in every round, its JIT never settles, and waiting for it would hold the lead-in at its cap.
     */
    boolean settled(Block b) {
        BlockRecord.Shape s = shape(b.target(), b.round());
        return !fresh.contains(b.target() + "/" + b.round()) && (s == null || s.died() == null);
    }

    /** A block's shape; null for a block it did not see. */
    BlockRecord.Shape shape(String label, int round) {
        return shapes.get(label + "/" + round);
    }

    /** "out of heap (heap 512m): java.lang.OutOfMemoryError: Java heap space: target exited in its block (code 3)" */
    private static String firstLine(String exited) {
        return exited.lines().findFirst().orElse("").replaceFirst("; last lines:$", "");
    }

    @Override
    public void close() {
        sampler.close();
    }
}
