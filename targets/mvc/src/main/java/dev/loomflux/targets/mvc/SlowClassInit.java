package dev.loomflux.targets.mvc;

/**
 * Blocks inside its class initializer, which pins a virtual thread to its carrier even on JDK 24+
 * (JEP 491 unpinned {@code synchronized}, not class initialization). {@code GET /diagnostics/pin}
 * touches it so the lab can prove that it reports {@code jdk.VirtualThreadPinned} events.
 */
final class SlowClassInit {
    static final long BLOCKED_MS = 100;
    static final String STATE;

    static {
        try {
            Thread.sleep(BLOCKED_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        STATE = "initialized after blocking " + BLOCKED_MS + " ms";
    }

    private SlowClassInit() {
    }
}
