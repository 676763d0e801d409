package dev.loomflux.lab;

import java.time.Duration;

/** Sleeps that a Ctrl-C may cut short: the interrupt is kept for the caller's next check of the stop. */
public final class Pause {
    private Pause() {
    }

    public static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
