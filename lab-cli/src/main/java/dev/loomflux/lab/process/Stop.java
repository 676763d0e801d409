package dev.loomflux.lab.process;

/**
 * Whether the run has been told to stop (Ctrl-C, SIGTERM): work in progress then stops instead of
 * reporting failures. Handed down from the command ({@code LabProcesses::stopping}), so that a test can stop
 * a run, a procedure or a warmup without sending the lab a signal.
 */
@FunctionalInterface
public interface Stop {
    Stop NEVER = () -> false;

    boolean requested();
}
