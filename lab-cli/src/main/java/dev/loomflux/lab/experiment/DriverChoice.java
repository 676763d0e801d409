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
 */
public record DriverChoice(String name, String where, String agents, Path keystore) {
    public static final DriverChoice NONE = new DriverChoice(null, null, null, null);

    public String agentsWhere() {
        return where + ".jmeter.agents";
    }

    public String keystoreWhere() {
        return where + ".jmeter.keystore";
    }

    /**
     * Why a load driver cannot run the paired design's interleaved rounds, as the run log ends "interleaved rounds need ...":
     * JMeter's agents would each keep their own rounds, and JMeter has no rate blocks; null when it can.
     *
     * @param name   hyperfoil or jmeter
     * @param agents whether JMeter is to split the load over agents
     * @param rate   whether the profile is a rate, whose blocks are rates too
     */
    public static String roundsObstacle(String name, boolean agents, boolean rate) {
        if (!"jmeter".equals(name)) {
            return null;
        }
        return agents ? "one load driver: JMeter's agents would each keep their own rounds" : rate ? "the Hyperfoil driver for rate blocks" : null;
    }

    /** {@link #roundsObstacle(String, boolean, boolean)} of this choice, the file's own. */
    public String roundsObstacle(boolean rate) {
        return roundsObstacle(name, agents != null, rate);
    }

    static String name(String name, String where) {
        if (!name.equals("hyperfoil") && !name.equals("jmeter")) {
            throw new UsageException(where + ": '" + name + "': expected hyperfoil or jmeter");
        }
        return name;
    }
}
