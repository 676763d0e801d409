package dev.loomflux.lab.run;

import dev.loomflux.lab.sut.LaunchSettings;

/**
 * A design as the run carries it out: the order in which its target JVMs start, are warmed and are measured
 * ({@link SequentialRun}, {@link PairedRun}). What every run does around it (results directory, pinning, support
 * processes, Ctrl-C, summary, report) is the {@link Runner}'s.
 */
interface DesignRun {
    /** The target JVMs alive at once: what the machine's memory must hold. */
    int residentJvms();

    /** Refuses, before anything starts, a run whose JVMs the machine's memory cannot hold. */
    void requireMemory(LaunchSettings settings);

    /**
     * Starts the targets and measures them, adding to the session's results as each finishes; returns when all is
     * done or the run was told to stop, with every JVM it started stopped.
     */
    void run(Session session);

    /** After a run that was not stopped, before the procedure's summary: what the design draws from all its results. */
    void compare(Session session);

    /** The design's closing lines, after the procedure's. */
    void conclude(Session session);
}
