package dev.loomflux.lab.experiment;

/**
 * Where a flow's data variable takes its value at the start of each iteration. Every value is a function
 * of the scenario's seed, the variable, the user and the user's iteration (driver.FlowValues), so every
 * target gets the same values in the same order for the same seed, and two targets see the same work.
 */
public sealed interface FlowData {
    /** A whole number drawn uniformly from {@code min..max}, both included. */
    record Uniform(long min, long max) implements FlowData {
        public Uniform {
            if (min > max) {
                throw new IllegalArgumentException("uniform " + min + ".." + max);
            }
        }
    }

    /** A number no other iteration of the load gets: 1, 2, 3, ... over the users and their iterations. */
    record Unique() implements FlowData {
    }

    /** A column of the flow's CSV file ({@link FlowCsv}), from the row of the user or of the iteration. */
    record Column(int index) implements FlowData {
    }
}
