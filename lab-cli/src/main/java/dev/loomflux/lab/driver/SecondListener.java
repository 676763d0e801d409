package dev.loomflux.lab.driver;

/**
 * Live progress: called once per second of the run, in order, from a driver thread (the caller's
 * thread for the last seconds). Hyperfoil files a response under the second its request started
 * and publishes a second only after later seconds have begun, so each row arrives about two
 * seconds after the second it describes has ended. A row is final unless responses took longer
 * than that; {@link Measurement#series()} always holds the final rows. Keep the work short: the
 * thread also samples the active users.
 */
@FunctionalInterface
public interface SecondListener {
    void second(Second s);

    /**
     * When the load's second 0 began, epoch ms on the lab's clock: seconds count from the first request, which a driver that
     * starts processes first (JMeter, its agents: 5-10 s) sends well after the load was asked for.
     */
    default void started(long epochMs) {
    }
}
