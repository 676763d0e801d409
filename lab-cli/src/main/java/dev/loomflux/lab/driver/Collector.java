package dev.loomflux.lab.driver;

import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.statistics.StatisticsSnapshot;

/**
 * What {@link EmbeddedBenchmark} hands its statistics to: by second of one load ({@link Tally}) or by
 * block of interleaved rounds ({@link BlockTally}). Fed from the driver's statistics thread and
 * from event loops.
 */
public interface Collector {
    /** The load starts now (epoch ms): connections are open. */
    void start(long nowMillis);

    /**
     * One published Hyperfoil sample: 1 s of one metric of one phase; late responses come as further samples of the
     * same second. A one-request load has one metric ({@link PhasePlan#METRIC}), a load of flows those of {@link FlowMetrics}.
     */
    void add(String phase, String metric, StatisticsSnapshot sample);

    /** Users in the middle of a request at {@code nowMillis}. */
    void users(long nowMillis, int active);

    /** Hyperfoil ran out of sessions for the arrivals and queued them. */
    void sessionLimitHit();

    /** Hyperfoil's watchdogs complain through one callback. */
    void watchdog(Throwable complaint);

    /** Once a second: hands what is complete to live listeners. */
    void publishLive(long nowMillis);

    /** A phase changed status; TERMINATED comes after its last statistics were added. */
    default void phase(String phase, PhaseInstance.Status status, long nowMillis) {
    }
}
