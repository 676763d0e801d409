package dev.loomflux.lab.experiment;

import java.nio.file.Path;

/**
 * The load driver an experiment file asks for, with where it was written, so that an error about it names
 * the file and field as the flags' errors name the flag.
 *
 * @param name     a driver's name ({@link DriverTraits#name()}); null when the file names none
 * @param where    {@code file: driver}
 * @param agents   the driver's agents as --agents takes them ({@code N} or {@code HOST:PORT,...}); null for none
 * @param keystore the agents' keystore, resolved against the file's folder; null for none
 * @param plan     a plan of the user's own to run ({@code driver: {NAME: {plan: FILE}}}), resolved against the
 *                 file's folder; null for the lab's own plans
 */
public record DriverChoice(String name, String where, String agents, Path keystore, Path plan) {
    public static final DriverChoice NONE = new DriverChoice(null, null, null, null);

    public DriverChoice(String name, String where, String agents, Path keystore) {
        this(name, where, agents, keystore, null);
    }

    public String agentsWhere() {
        return where + "." + name + ".agents";
    }

    public String keystoreWhere() {
        return where + "." + name + ".keystore";
    }

    public String planWhere() {
        return where + "." + name + ".plan";
    }

    /**
     * Why a plan of the user's own runs no interleaved rounds, as the run log ends "interleaved rounds need ...": the rounds
     * are one plan the lab writes for every target, each request passing its target's gate.
     */
    public static final String PLAN_OBSTACLE = "a plan the lab writes, each request passing its target's gate: a plan of your own has none";

    /**
     * Why this choice, the file's own, cannot run interleaved rounds ({@link DriverCatalog#roundsObstacle}); with a plan of the
     * user's own, {@link #PLAN_OBSTACLE}; null when it can.
     *
     * @param rate whether the profile is a rate
     */
    public String roundsObstacle(DriverCatalog<?> drivers, boolean rate) {
        return plan != null ? PLAN_OBSTACLE : drivers.roundsObstacle(name, rate);
    }
}
