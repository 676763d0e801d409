package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.ExperimentReader;
import dev.loomflux.lab.experiment.LoadBounds;
import java.time.Duration;

/** Flag values in the experiment files' syntax, with errors that name the flag. */
final class Flags {
    private Flags() {
    }

    /** How many JVMs of each target, --repeat N or --sets N, for run, sweep and capacity alike. */
    static int count(String flag, int n) {
        if (n < 1 || n > LoadBounds.MAX_REPEAT) {
            throw new UsageException(flag + " " + n + ": expected 1.." + LoadBounds.MAX_REPEAT);
        }
        return n;
    }

    static Duration duration(String flag, String text, boolean zeroAllowed) {
        Duration d = ExperimentReader.duration(text, msg -> new UsageException(flag + " " + text + ": " + msg));
        if (!zeroAllowed && d.isZero()) {
            throw new UsageException(flag + " " + text + ": must be longer than 0");
        }
        return d;
    }
}
