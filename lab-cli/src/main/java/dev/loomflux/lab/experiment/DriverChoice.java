package dev.loomflux.lab.experiment;

import dev.loomflux.lab.UsageException;
import java.nio.file.Path;

/**
 * The load driver an experiment file asks for, with where it was written, so that an error about it names
 * the file and field as the flags' errors name the flag.
 *
 * @param name     hyperfoil or jmeter; null when the file names none
 * @param where    {@code file: driver}
 * @param agents   JMeter's agents as --agents takes them ({@code N} or {@code HOST:PORT,...}); null for none
 * @param keystore the agents' keystore, resolved against the file's folder; null for none
 * @param plan     a JMeter plan of the user's own to run ({@code driver: {jmeter: {plan: FILE.jmx}}}), resolved against the
 *                 file's folder; null for the lab's own plans
 */
public record DriverChoice(String name, String where, String agents, Path keystore, Path plan) {
    public static final DriverChoice NONE = new DriverChoice(null, null, null, null);

    public DriverChoice(String name, String where, String agents, Path keystore) {
        this(name, where, agents, keystore, null);
    }

    public String agentsWhere() {
        return where + ".jmeter.agents";
    }

    public String keystoreWhere() {
        return where + ".jmeter.keystore";
    }

    public String planWhere() {
        return where + ".jmeter.plan";
    }

    /**
     * Why a load driver cannot run the paired design's interleaved rounds, as the run log ends "interleaved rounds need ...":
     * JMeter has no rate blocks (its arrivals cannot wait at a gate without leaving their schedule); null when it can.
     *
     * @param name hyperfoil or jmeter
     * @param rate whether the profile is a rate, whose blocks are rates too
     */
    public static String roundsObstacle(String name, boolean rate) {
        return "jmeter".equals(name) && rate ? "the Hyperfoil driver for rate blocks" : null;
    }

    /**
     * Why a plan of the user's own runs no interleaved rounds, as the run log ends "interleaved rounds need ...": the rounds
     * are one JMeter plan the lab writes for every target, each request passing its target's gate.
     */
    public static final String PLAN_OBSTACLE = "a plan the lab writes, each request passing its target's gate: a plan of your own has none";

    /** {@link #roundsObstacle(String, boolean)} of this choice, the file's own; with a plan of the user's own, {@link #PLAN_OBSTACLE}. */
    public String roundsObstacle(boolean rate) {
        return plan != null ? PLAN_OBSTACLE : roundsObstacle(name, rate);
    }

    static String name(String name, String where) {
        if (!name.equals("hyperfoil") && !name.equals("jmeter")) {
            throw new UsageException(where + ": '" + name + "': expected hyperfoil or jmeter");
        }
        return name;
    }
}
