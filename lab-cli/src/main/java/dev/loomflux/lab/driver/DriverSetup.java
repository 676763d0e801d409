package dev.loomflux.lab.driver;

import dev.loomflux.lab.process.LabProcesses;
import java.nio.file.Path;

/**
 * What a driver is made with ({@link DriverType#create}): the lab's processes and what the flags or the experiment file
 * give it, each with what its errors name.
 *
 * @param agents the agents to run each load on ({@link dev.loomflux.lab.experiment.DriverTraits.Capability#AGENTS}); null for none
 * @param plan   a plan of the user's own ({@link dev.loomflux.lab.experiment.DriverTraits.Capability#OWN_PLANS}); null for the lab's
 */
public record DriverSetup(LabProcesses processes, Agents agents, PlanFile plan) {
    /** Neither agents nor a plan of the user's own. */
    public static DriverSetup plain(LabProcesses processes) {
        return new DriverSetup(processes, null, null);
    }

    /**
     * Agents as given, and what errors name.
     *
     * @param value         {@code N} (agents the lab starts on 127.0.0.1) or {@code HOST:PORT,...} (agents started on other hosts)
     * @param keystore      the keystore the agents on other hosts were started with; null when none was given
     * @param field         the flag or file field that gave them: {@code --agents}, or {@code file: driver.NAME.agents}
     * @param where         that with its value: {@code --agents 2}, or the file's field
     * @param keystoreKey   what a user adds to give a keystore: {@code --agent-keystore}, or {@code keystore}
     * @param keystoreWhere where the keystore was given, with its path: {@code --agent-keystore FILE}, or {@code file: driver.NAME.keystore FILE}
     */
    public record Agents(String value, Path keystore, String field, String where, String keystoreKey, String keystoreWhere) {
        /** As the flags give them. */
        public static Agents flags(String value, Path keystore) {
            return new Agents(value, keystore, "--agents", "--agents " + value, "--agent-keystore", "--agent-keystore " + keystore);
        }
    }

    /**
     * A plan of the user's own.
     *
     * @param where the flag or file field that named it, with the path: {@code --plan FILE}
     */
    public record PlanFile(Path file, String where) {
    }
}
