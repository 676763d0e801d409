package dev.loomflux.lab.driver;

import dev.loomflux.lab.experiment.FlowCsv;
import java.util.SplittableRandom;

/**
 * What a user's iteration of a flow draws: which flow of a mix it runs and its data values. Each draw is a
 * function of the mix's seed, what is drawn, the user and the user's iteration (both from 0), and of nothing
 * else, so every target gets the same flows and values in the same order for the same seed, whatever the
 * timing. Both drivers compute the same: Hyperfoil with this class (its flow iteration step), JMeter with the
 * Groovy of {@link #GROOVY}, which is this code in Groovy's syntax (Groovy's arithmetic on longs wraps as Java's).
 */
public final class FlowValues {
    /** Odd 64-bit constants (SplitMix64's) that spread the parts of a draw's seed over all its bits. */
    static final long WHAT = 0x9E3779B97F4A7C15L;
    static final long USER = 0xBF58476D1CE4E5B9L;
    static final long ITERATION = 0x94D049BB133111EBL;
    /** What a mix's choice of flow is drawn as: no variable has this name. */
    static final String FLOW = "";

    private FlowValues() {
    }

    private static SplittableRandom random(long seed, String what, long user, long iteration) {
        return new SplittableRandom(seed ^ what.hashCode() * WHAT ^ user * USER ^ iteration * ITERATION);
    }

    /** A whole number in {@code min..max}, both included (a data variable's range is within a quarter of a long's). */
    public static long uniform(long seed, String var, long user, long iteration, long min, long max) {
        return random(seed, var, user, iteration).nextLong(min, max + 1);
    }

    /** The index of the flow the iteration runs, each flow's chance its weight's share of the total. */
    public static int pick(long seed, int[] weights, long user, long iteration) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int r = random(seed, FLOW, user, iteration).nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return i;
            }
        }
        throw new IllegalStateException("weights " + total);
    }

    /** 1, 2, 3, ...: iteration by iteration, user by user, over {@code users} users, so no two iterations of a load get the same. */
    public static long unique(long users, long user, long iteration) {
        return iteration * users + user + 1;
    }

    /** The CSV row of the user ({@code user} mod rows) or of the iteration (the next row for each iteration, over the users). */
    public static int row(FlowCsv.Per per, int rows, long users, long user, long iteration) {
        long k = per == FlowCsv.Per.USER ? user : iteration * users + user;
        return (int) Math.floorMod(k, (long) rows);
    }

    /**
     * The same draws in Groovy, for JMeter's JSR223 elements; {@code user} and {@code iteration} are longs.
     * The constants go in as decimal longs, which Groovy and Java read alike.
     */
    public static final String GROOVY = """
            def random = { long seed, String what, long user, long iteration -> new java.util.SplittableRandom(seed ^ ((long) what.hashCode()) * %dL ^ user * %dL ^ iteration * %dL) }
            def uniform = { long seed, String var, long user, long iteration, long min, long max -> random(seed, var, user, iteration).nextLong(min, max + 1) }
            def pick = { long seed, List<Integer> weights, long user, long iteration ->
                int r = random(seed, '', user, iteration).nextInt((int) weights.sum())
                int i = 0
                while (r >= weights[i]) { r -= weights[i]; i++ }
                i
            }
            def unique = { long users, long user, long iteration -> iteration * users + user + 1 }
            def row = { boolean perUser, int rows, long users, long user, long iteration -> (int) Math.floorMod(perUser ? user : iteration * users + user, (long) rows) }
            """.formatted(WHAT, USER, ITERATION);
}
