package dev.loomflux.lab.driver;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.experiment.LoadProfile;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Interleaved rounds whose blocks are whole loads of a shape (stages, loops, a burst): each block one load of the driver's
 * own, from its first user to its last, against one target while the others idle (docs/guide.md, "Shapes in rounds"). A
 * shape's ramp is then the block, not drift: the rounds compare the shape against itself, round after round. Each load
 * opens its connections afresh, as the shape's first users would.
 */
public final class WholeLoads {
    /** The targets' JVMs as the rounds go: a shape can kill one, and the rounds go on with a fresh one (docs/statistics.md, "Survival"). */
    public interface Lives {
        /**
         * Before {@code target}'s block of {@code round}: where it serves now, a fresh JVM's address when its last one died.
         *
         * @throws dev.loomflux.lab.LabException when no JVM of it could be started
         */
        URI before(String target, int round);

        /** Asked after each second of its block: a block whose target died ends there, its death the block's outcome. */
        boolean alive(String target);

        /** Its block's seconds, as it ended, with the shape they followed: what the target went through at the shape's peak. */
        void seconds(String target, int round, LoadProfile shape, List<Second> series);
    }

    private WholeLoads() {
    }

    /** Runs the rounds one load at a time, in their order, until the last ended or the listener asks for no more rounds. */
    public static List<Block> run(LoadDriver driver, Rounds rounds, Rounds.Listener listener, Lives lives) {
        List<Block> out = new ArrayList<>();
        for (int round = 0; round < rounds.order().size() && listener.more(round); round++) {
            List<Integer> order = rounds.order().get(round);
            for (int position = 0; position < order.size(); position++) {
                int t = order.get(position);
                String name = rounds.targets().get(t).name();
                URI base;
                try {
                    base = lives.before(name, round);
                } catch (LabException e) {
                    // No JVM of it to load: the rounds before this one are whole and kept.
                    throw new RoundsCut(name + ": " + e.getMessage() + ": the rounds end here", out);
                }
                listener.started(name, round);
                LoadSpec spec = rounds.spec(t, base);
                Measurement m = driver.run(spec, second -> { }, () -> !lives.alive(name));
                lives.seconds(name, round, spec.profile(), m.series());
                long end = System.currentTimeMillis();
                Block b = new Block(name, round, position, end - m.elapsed().toMillis(), end, m.requests(), m.responses(), m.share(), m.errors(),
                        m.reconnections(), m.latency(), m.series().stream().map(Second::rps).toList(), -1, m.flows());
                out.add(b);
                listener.ended(b);
            }
        }
        return out;
    }
}
