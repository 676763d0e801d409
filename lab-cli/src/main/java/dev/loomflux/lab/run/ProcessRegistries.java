package dev.loomflux.lab.run;

import dev.loomflux.lab.process.MachineLock;
import dev.loomflux.lab.process.Reaper;
import dev.loomflux.lab.process.RunProcesses;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The lab-wide registries a run uses: the record of the processes each run started ({@link RunProcesses}: what an
 * earlier lab left behind is stopped, this run's own record opened), the machine lock's account of what holds the
 * machine ({@link MachineLock}), and what a Ctrl-C must do ({@link Reaper}). A run reaches them only through here.
 */
final class ProcessRegistries {
    /** Stops what runs of a lab that was killed left running; says each one it stopped. */
    void cleanUp(Path results, Consumer<String> say) {
        RunProcesses.cleanUp(results, say);
    }

    /** What the machine lock tells another lab that waits for it: "run 20261126-054941-default". */
    void describe(String what) {
        MachineLock.describe(what);
    }

    /** The run's record of the processes it starts, in its results directory; closing it marks the run ended. */
    RunProcesses open(Path runDir) {
        return RunProcesses.open(runDir);
    }

    /** Run on a Ctrl-C, before the lab's processes are stopped. */
    void onStop(AutoCloseable hook) {
        Reaper.register(hook);
    }

    void offStop(AutoCloseable hook) {
        Reaper.unregister(hook);
    }
}
