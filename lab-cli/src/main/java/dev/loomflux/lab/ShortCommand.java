package dev.loomflux.lab;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** A short helper command whose exit code is the answer (taskset, setpriv): its output is not read. */
public final class ShortCommand {
    private ShortCommand() {
    }

    /** False when it cannot start, fails or hangs for 5 s. */
    public static boolean succeeds(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
