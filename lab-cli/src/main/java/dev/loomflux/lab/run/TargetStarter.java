package dev.loomflux.lab.run;

import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.sut.TargetSpec;

/**
 * Starts a target's JVM for a design, ready to serve and said on the console: the designs differ only in where it
 * starts and in what follows its start ({@link JvmStarter}).
 */
interface TargetStarter {
    /**
     * The sequential design's: on the target CPUs, the only target alive, then idle for the experiment's idle time.
     *
     * @param repeat the repeat it serves, from 1
     * @throws dev.loomflux.lab.LabException when it did not start, with why
     */
    TargetVisit alone(TargetSpec spec, int repeat);

    /**
     * The paired design's: on the start CPUs beside the other JVMs of the run, then moved to the target CPUs.
     *
     * @param set the set of JVMs it belongs to, from 1
     * @throws dev.loomflux.lab.LabException when it did not start, with why
     */
    TargetVisit beside(TargetSpec spec, int set);
}
