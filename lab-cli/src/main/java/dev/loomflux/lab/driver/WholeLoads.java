package dev.loomflux.lab.driver;

import java.util.ArrayList;
import java.util.List;

/**
 * Interleaved rounds whose blocks are whole loads of a shape (stages, loops, a burst): each block one load of the driver's
 * own, from its first user to its last, against one target while the others idle (docs/guide.md, "Shapes in rounds"). A
 * shape's ramp is then the block, not drift: the rounds compare the shape against itself, round after round. Each load
 * opens its connections afresh, as the shape's first users would.
 */
public final class WholeLoads {
    private WholeLoads() {
    }

    /** Runs the rounds one load at a time, in their order, until the last ended or the listener asks for no more rounds. */
    public static List<Block> run(LoadDriver driver, Rounds rounds, Rounds.Listener listener) {
        List<Block> out = new ArrayList<>();
        for (int round = 0; round < rounds.order().size() && listener.more(round); round++) {
            List<Integer> order = rounds.order().get(round);
            for (int position = 0; position < order.size(); position++) {
                int t = order.get(position);
                String name = rounds.targets().get(t).name();
                listener.started(name, round);
                Measurement m = driver.run(rounds.spec(t), second -> { });
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
