package dev.loomflux.lab.cpuprofile;

/**
 * The stacks one JFR sampler took.
 *
 * @param truncated how many of the samples JFR cut at its stack depth (64 frames unless the
 *                  recording sets {@code stackdepth}); they are in {@code stacks}, rooted at
 *                  {@link JfrSamples#TRUNCATED}
 */
public record Samples(CollapsedStacks stacks, long truncated) {
    public long count() {
        return stacks.samples();
    }
}
