package dev.loomflux.lab.steady;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The rule on synthetic series whose answer is known. */
class SteadyRuleTest {
    private static final SteadyRule RULE = SteadyRule.DEFAULT;

    /** Throughput by second with 5% Gaussian noise, median latency inverse to it (50 closed users), a quiet JIT. */
    private static List<Point> series(int seconds, long seed, IntToDoubleFunction rps, IntToDoubleFunction jitMs) {
        Random random = new Random(seed);
        List<Point> out = new ArrayList<>();
        for (int t = 0; t < seconds; t++) {
            double r = rps.applyAsDouble(t) * (1 + 0.05 * random.nextGaussian());
            out.add(new Point(r, 50_000.0 / r, jitMs.applyAsDouble(t), jitMs.applyAsDouble(t), 300.0 * (1 + 0.02 * random.nextGaussian())));
        }
        return out;
    }

    /** The first second after which the rule holds on the series so far, or -1. */
    private static int firstSteady(List<Point> s) {
        for (int n = 1; n <= s.size(); n++) {
            if (RULE.check(s.subList(0, n)).steady()) {
                return n;
            }
        }
        return -1;
    }

    @Test
    void aRampIsNeverSteady() {
        for (long seed = 1; seed <= 20; seed++) {
            // 2,000 -> 20,000 rps over 60 s: 15-30% per 10 s window, like webflux's cold start here.
            List<Point> ramp = series(90, seed, t -> 2000 + 300 * t, t -> 0);
            assertEquals(-1, firstSteady(ramp), "seed " + seed);
        }
    }

    @Test
    void aFlatSeriesWithNoiseIsSteadyAfterOneWindowAndItsConfirmation() {
        int first = RULE.windowSeconds() + RULE.confirmSeconds() - 1;
        int atOnce = 0;
        for (long seed = 1; seed <= 50; seed++) {
            int at = firstSteady(series(60, seed, t -> 20_000, t -> 0));
            if (at == first) {
                atOnce++;
            }
            assertTrue(at >= first && at <= first + 10, "seed " + seed + ": " + at);
        }
        // A test at p < 0.05 rejects a flat window now and then; most flat series pass at once.
        assertTrue(atOnce >= 35, atOnce + " of 50");
    }

    @Test
    void aLateStepIsNotSteadyUntilTheWindowIsPastIt() {
        for (long seed = 1; seed <= 20; seed++) {
            // Flat, a C2 compile lands at t = 30 and lifts throughput by 50%, flat again.
            List<Point> s = series(80, seed, t -> t < 30 ? 10_000 : 15_000, t -> 0);
            // A window with at least eight seconds on each side of the step must fail; with fewer on one side
            // the rank tests may not tell a step from noise (the measured window's drift check is the backstop).
            for (int n = 38; n <= 42; n++) {
                SteadyRule.Check c = RULE.check(s.subList(0, n));
                assertFalse(c.steady(), "seed " + seed + " at " + n + ": " + c);
                assertTrue(c.reasons().stream().anyMatch(r -> r.contains("throughput")), c.toString());
            }
            int after = -1;
            for (int n = 49; n <= 80 && after < 0; n++) {
                after = RULE.check(s.subList(0, n)).steady() ? n : -1;
            }
            // Windows ending from 50 on are past the step; one that starts with a few pre-step seconds may pass
            // a little earlier (the step is over by then, and the measurement comes after it).
            assertTrue(after >= 49 && after <= 62, "seed " + seed + ": steady again at " + after);
        }
    }

    @Test
    void aBusyJitIsNotSteadyEvenWhenThroughputLooksFlat() {
        // mvc here: throughput crept up 3-5% per window while the C2 compiler was busy ~100% of the time.
        List<Point> s = series(70, 7, t -> 10_000, t -> t < 30 ? 900 : 10);
        SteadyRule.Check busy = RULE.check(s.subList(0, 25));
        assertFalse(busy.steady());
        assertEquals(90, busy.jitPct(), 1);
        assertTrue(busy.reasons().get(0).startsWith("JIT compiling 90%"), busy.reasons().toString());
        // Quiet from 30: the first quiet window ends at 50, confirmed at 52.
        assertEquals(52, firstSteady(s));
    }

    @Test
    void aCompilationInProgressIsNotQuietThoughNoneFinished() {
        // webflux here: no compilation finished for 20 s while C2 worked on one, then 13 s of compiles landed
        // in the measured window. Its compiler threads' CPU time shows the work in progress.
        Random random = new Random(9);
        List<Point> s = new ArrayList<>();
        for (int t = 0; t < 30; t++) {
            s.add(new Point(10_000 * (1 + 0.03 * random.nextGaussian()), 5.0, 0.0, 100.0, 300.0));
        }
        SteadyRule.Check c = RULE.check(s);
        assertFalse(c.steady(), c.toString());
        assertEquals(0, c.jitPct(), 1e-9);
        assertEquals(10, c.jitCpuPct(), 1e-9);
        assertTrue(c.reasons().contains("JIT compiler threads using 10.0% of a CPU (limit 2%)"), c.reasons().toString());
    }

    @Test
    void withoutJitCountersTheWindowIsDoubled() {
        List<Point> s = series(60, 3, t -> 10_000, t -> Double.NaN).stream()
                .map(p -> new Point(p.rps(), p.p50Ms(), null, null, null)).toList();
        SteadyRule.Check c = RULE.check(s.subList(0, 30));
        assertFalse(c.steady());
        assertEquals(40, c.window());
        assertTrue(RULE.check(s).steady(), RULE.check(s).toString());
    }

    @Test
    void aMachineSlowingDownIsNamed() {
        Random random = new Random(5);
        List<Point> s = new ArrayList<>();
        for (int t = 0; t < 22; t++) {
            // The host takes 40% of the CPU away over 20 s: throughput and the canary move together.
            double slow = 1 + 0.02 * t;
            s.add(new Point(20_000 / slow * (1 + 0.02 * random.nextGaussian()), 1.0, 0.0, 0.0, 300 * slow));
        }
        SteadyRule.Check c = RULE.check(s);
        assertFalse(c.steady());
        assertTrue(c.machineChangePct() < -20, c.toString());
        assertTrue(c.reasons().stream().anyMatch(r -> r.startsWith("the machine's CPU speed changed")), c.reasons().toString());
    }

    @Test
    void theCompileStageEndsOnceTheJitIsQuietWhateverThroughputDoes() {
        // Throughput still climbing; the JIT busy (400 ms a second) until second 30, then quiet.
        List<Point> s = series(40, 7, t -> 1000 + 100 * t, t -> t < 30 ? 400 : 0);
        int quietAt = -1;
        for (int n = 1; n <= s.size() && quietAt < 0; n++) {
            if (RULE.jitQuiet(s.subList(0, n), 5).steady()) {
                quietAt = n;
            }
        }
        assertEquals(35, quietAt);
        SteadyRule.Check busy = RULE.jitQuiet(s.subList(0, 34), 5);
        assertFalse(busy.steady());
        assertEquals(8.0, busy.jitPct(), 1e-9); // 400 ms of the 5 s window
        List<Point> noCounters = List.of(new Point(1000, 50, null, null, null));
        assertEquals(null, RULE.jitQuiet(noCounters, 5));
    }
}
