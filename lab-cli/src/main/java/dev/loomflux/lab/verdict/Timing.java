package dev.loomflux.lab.verdict;

/**
 * How the run's driver times requests, as the comparisons weigh a latency: in steps of {@code stepMs}, which leave two targets
 * that read the same step in every round with a ratio of 1.000 and no interval (docs/statistics.md, "Timing in whole
 * milliseconds"); a comparison that only a finer step would decide advises the drivers that time finer.
 *
 * @param stepMs the driver's latency resolution in ms where it is coarse enough to matter; 0 otherwise
 * @param finer  the drivers that time finer, as that advice names them, e.g. "Hyperfoil (--driver hyperfoil)"; null when none does
 */
public record Timing(double stepMs, String finer) {
    /** A driver that times finely enough not to matter to a comparison. */
    public static final Timing FINE = new Timing(0, null);
}
