package dev.loomflux.lab.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.steady.SteadyRule;
import org.junit.jupiter.api.Test;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** How many users heat the code in the compile stage, from what the 2-user probe saw; what a stop does to a warmup. */
class WarmupTest {
    private static final LoadSpec FIFTY = new LoadSpec(URI.create("http://127.0.0.1:1"), "/plaintext", new LoadProfile.Fixed(50, Duration.ofSeconds(10)), 1);
    private static final Warmup.Signals NO_SIGNALS = (start, rps, p50) -> null;

    /** Whether the load would have been cancelled at once: the driver's run asks its {@code enough} and stops there. */
    private static final class Asked extends RuntimeException {
        final boolean cancelled;

        Asked(boolean cancelled) {
            super(null, null, false, false);
            this.cancelled = cancelled;
        }
    }

    private static LoadDriver driver() {
        return (LoadDriver) Proxy.newProxyInstance(LoadDriver.class.getClassLoader(), new Class<?>[] {LoadDriver.class}, (proxy, method, args) -> {
            if (method.getName().equals("run") && args.length >= 3) {
                throw new Asked(((BooleanSupplier) args[2]).getAsBoolean());
            }
            if (method.getName().equals("keepsOwnLength")) {
                return false; // the lab's own plans: a load as long as its profile says
            }
            throw new AssertionError("the driver was asked to " + method.getName());
        });
    }

    @Test
    void aStoppedRunStartsNoWarmupLoad() {
        Stop stopped = () -> true;
        assertSame(Warmup.Outcome.NONE, Warmup.compile(new Warmup.Means(driver(), SteadyRule.DEFAULT, NO_SIGNALS, stopped), FIFTY, 1, Duration.ofSeconds(30), s -> { }));
        assertSame(Warmup.Outcome.NONE, Warmup.run(new Warmup.Means(driver(), SteadyRule.DEFAULT, NO_SIGNALS, stopped), FIFTY, Duration.ofSeconds(30), s -> { }));
        // Without a stop the same calls do load the target.
        assertThrows(Asked.class, () -> Warmup.run(new Warmup.Means(driver(), SteadyRule.DEFAULT, NO_SIGNALS, Stop.NEVER), FIFTY, Duration.ofSeconds(30), s -> { }));
    }

    @Test
    void aStopCancelsTheLoadThatWarmsUpAndMeasures() {
        Asked stopped = assertThrows(Asked.class, () -> Warmup.runThenMeasure(new Warmup.Means(driver(), SteadyRule.DEFAULT, NO_SIGNALS, () -> true), FIFTY,
                Duration.ofSeconds(30), s -> { }, s -> { }, () -> { }));
        assertEquals(true, stopped.cancelled);
        Asked going = assertThrows(Asked.class, () -> Warmup.runThenMeasure(new Warmup.Means(driver(), SteadyRule.DEFAULT, NO_SIGNALS, Stop.NEVER), FIFTY,
                Duration.ofSeconds(30), s -> { }, s -> { }, () -> { }));
        assertEquals(false, going.cancelled, "30 s of budget left and no stop: the load goes on");
    }
    @Test
    void usersWaitingOnADownstreamAreAddedUntilTheRateHeatsTheCode() {
        // gateway over a 20 ms downstream: 2 users made 85 rps at 8% of a core -> 2 x 1000 / 85 = 23.5
        assertEquals(24, Warmup.heatUsers(85, 8.0, 200));
        // a 500 ms downstream: 4 rps would ask for 500 users; Tomcat's 200 threads are the most
        assertEquals(200, Warmup.heatUsers(4, 1.0, 200));
        // never more than the measured profile itself
        assertEquals(50, Warmup.heatUsers(4, 1.0, 50));
        // without a CPU reading the rate decides alone
        assertEquals(5, Warmup.heatUsers(400, null, 200));
    }

    @Test
    void twoUsersStayWhenTheyAreFastOrKeepTheTargetBusy() {
        assertEquals(2, Warmup.heatUsers(12_000, 95.0, 200), "plaintext");
        assertEquals(2, Warmup.heatUsers(1000, 40.0, 200), "at the heating rate already");
        // CPU-bound work: slow, but more users would only crowd the compiler threads
        assertEquals(2, Warmup.heatUsers(300, 50.0, 200), "cpu");
        assertEquals(2, Warmup.heatUsers(0, null, 200), "no responses: nothing to go by");
    }
}
