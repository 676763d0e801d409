package dev.loomflux.lab.experiment;

/** Bounds on load settings: far above what one machine can drive, low enough to catch typos. */
public final class LoadBounds {
    public static final int MAX_REPEAT = 100;
    static final int MAX_USERS = 100_000;
    static final int MAX_REQUESTS_PER_USER = 10_000_000;
    static final int MAX_RPS = 10_000_000;

    private LoadBounds() {
    }

    /** Enough requests in flight for the rate at up to 1 s latency, so the driver is not the limit. */
    static int defaultMaxInFlight(int rps) {
        return Math.max(100, Math.min(MAX_USERS, rps));
    }
}
