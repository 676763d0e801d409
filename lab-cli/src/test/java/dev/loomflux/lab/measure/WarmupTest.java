package dev.loomflux.lab.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.driver.SecondListener;
import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.steady.Point;
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
    /**
     * A driver that reports second 0 of a load begun {@code agoMs} ago and then no more (as its figures come seconds late),
     * and answers whether {@code enough} said stop when asked once.
     */
    private static LoadDriver lateDriver(long agoMs) {
        return (LoadDriver) Proxy.newProxyInstance(LoadDriver.class.getClassLoader(), new Class<?>[] {LoadDriver.class}, (proxy, method, args) -> {
            if (method.getName().equals("run") && args.length >= 3) {
                SecondListener listener = (SecondListener) args[1];
                listener.started(System.currentTimeMillis() - agoMs);
                listener.second(new Second(0, 100, 100, 100, 1, 2, 0, 50, -1));
                throw new Asked(((BooleanSupplier) args[2]).getAsBoolean());
            }
            if (method.getName().equals("keepsOwnLength")) {
                return false;
            }
            throw new AssertionError("the driver was asked to " + method.getName());
        });
    }

    @Test
    void aJitOnlyStageEndsOnTheSamplersSecondsWithoutWaitingForTheDrivers() {
        Warmup.Signals quiet = (start, rps, p50) -> new Point(rps, p50, 0.0, 1.0, null);
        Warmup.Signals compiling = (start, rps, p50) -> new Point(rps, p50, 300.0, 400.0, null);
        // 6 s into the load, the sampler has read seconds 0-4: 3 quiet ones are known though the driver has reported one.
        Asked ended = assertThrows(Asked.class, () -> Warmup.untilQuiet(new Warmup.Means(lateDriver(6_000), SteadyRule.DEFAULT, quiet, Stop.NEVER, 3),
                FIFTY, Duration.ofSeconds(60), s -> { }));
        assertEquals(true, ended.cancelled);
        Asked busy = assertThrows(Asked.class, () -> Warmup.untilQuiet(new Warmup.Means(lateDriver(6_000), SteadyRule.DEFAULT, compiling, Stop.NEVER, 3),
                FIFTY, Duration.ofSeconds(60), s -> { }));
        assertEquals(false, busy.cancelled, "a JIT compiling 30% of the time goes on");
        // 2 s in, no 3 whole seconds are known yet (the sampler's last reading is a second behind).
        Asked early = assertThrows(Asked.class, () -> Warmup.untilQuiet(new Warmup.Means(lateDriver(2_000), SteadyRule.DEFAULT, quiet, Stop.NEVER, 3),
                FIFTY, Duration.ofSeconds(60), s -> { }));
        assertEquals(false, early.cancelled);
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
