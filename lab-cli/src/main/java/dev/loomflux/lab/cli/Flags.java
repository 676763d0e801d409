package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.ExperimentReader;
import java.time.Duration;

/** Flag values in the experiment files' syntax, with errors that name the flag. */
final class Flags {
    private Flags() {
    }

    static Duration duration(String flag, String text, boolean zeroAllowed) {
        Duration d = ExperimentReader.duration(text, msg -> new UsageException(flag + " " + text + ": " + msg));
        if (!zeroAllowed && d.isZero()) {
            throw new UsageException(flag + " " + text + ": must be longer than 0");
        }
        return d;
    }
}
