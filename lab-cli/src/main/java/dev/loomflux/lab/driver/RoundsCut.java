package dev.loomflux.lab.driver;

import dev.loomflux.lab.LabException;
import java.util.List;

/**
 * The rounds could not go on (a JMeter agent died or went quiet): the block it was in is void, and the blocks that ended
 * before it are kept, each whole and counted. The message names the agent and the block.
 */
public final class RoundsCut extends LabException {
    private final transient List<Block> blocks;

    public RoundsCut(String message, List<Block> blocks) {
        super(message);
        this.blocks = List.copyOf(blocks);
    }

    /** The blocks that ended before the cut. */
    public List<Block> blocks() {
        return blocks;
    }
}
