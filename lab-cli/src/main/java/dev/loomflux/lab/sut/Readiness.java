package dev.loomflux.lab.sut;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.process.ManagedProcess;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/** Polls a URL until it answers 200, failing early with the log tail if the process dies. */
final class Readiness {
    private Readiness() {
    }

    /** @return milliseconds from process start to the first 200 */
    static long await(ManagedProcess process, URI probe, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new LabException(process.name() + " exited with code " + process.exitValue()
                        + " before it was ready; last lines of " + process.log() + ":\n" + process.logTail(20));
            }
            try {
                if (Http.get(probe, Duration.ofSeconds(2)).status() == 200) {
                    return (System.nanoTime() - process.startedNanos()) / 1_000_000;
                }
            } catch (IOException notYet) {
                // Connection refused until the server binds.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LabException("interrupted while waiting for " + process.name());
            }
            Pause.sleep(Duration.ofMillis(25));
        }
        String tail = process.logTail(20);
        throw new LabException(process.name() + " not ready after " + timeout.toSeconds() + " s at " + probe
                + (tail.isBlank() ? "; it wrote nothing to " + process.log() : "; last lines of " + process.log() + ":\n" + tail));
    }
}
