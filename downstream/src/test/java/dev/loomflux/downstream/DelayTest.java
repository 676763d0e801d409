package dev.loomflux.downstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DelayTest {
    private static final int N = 200_000;

    @Test
    void absentMeansFixedAndExact() {
        assertEquals(new StubDelay(StubDelay.Distribution.FIXED, 0, 0), parse());
        assertEquals(new StubDelay(StubDelay.Distribution.FIXED, 20, 0), parse("ms", "20"));
        assertEquals(new StubDelay(StubDelay.Distribution.FIXED, 20, 0), parse("ms", "20", "dist", "fixed"));
        Stats s = draw(parse("ms", "20"));
        assertEquals(20, s.quantile(0.0));
        assertEquals(20, s.quantile(1.0));
    }

    @Test
    void uniformSpansZeroToTwiceMs() {
        Stats s = draw(parse("ms", "100", "dist", "uniform"));
        near(100, s.mean(), "mean");
        near(100, s.quantile(0.5), "median");
        near(198, s.quantile(0.99), "p99");
        assertEquals(0, s.quantile(0.0));
        assertEquals(200, s.quantile(1.0));
    }

    @Test
    void exponentialHasMeanMs() {
        Stats s = draw(parse("ms", "100", "dist", "exponential"));
        near(100, s.mean(), "mean");
        near(100 * Math.log(2), s.quantile(0.5), "median");
        near(100 * Math.log(100), s.quantile(0.99), "p99");
    }

    @Test
    void lognormalHasMedianMsAndTheAskedP99() {
        Stats s = draw(parse("ms", "100", "dist", "lognormal", "p99", "1000"));
        double sigma = Math.log(10) / StubDelay.Z99;
        near(100, s.quantile(0.5), "median");
        near(1000, s.quantile(0.99), "p99");
        near(100 * Math.exp(sigma * sigma / 2), s.mean(), "mean");
    }

    @Test
    void lognormalWithP99EqualToMsIsFixed() {
        Stats s = draw(parse("ms", "50", "dist", "lognormal", "p99", "50"));
        assertEquals(50, s.quantile(0.0));
        assertEquals(50, s.quantile(1.0));
    }

    @Test
    void everySampleIsCapped() {
        assertEquals(StubDelay.MAX_MS, draw(parse("ms", "60000", "dist", "uniform")).quantile(1.0));
        assertEquals(StubDelay.MAX_MS, draw(parse("ms", "30000", "dist", "lognormal", "p99", "60000")).quantile(1.0));
        assertEquals(StubDelay.MAX_MS, draw(parse("ms", "60000", "dist", "exponential")).quantile(1.0));
    }

    @Test
    void badInputNamesTheParameter() {
        assertEquals("parameter 'dist' must be one of fixed, uniform, exponential, lognormal",
                bad("ms", "20", "dist", "normal"));
        assertEquals("parameter 'dist' must be one of fixed, uniform, exponential, lognormal",
                bad("ms", "20", "dist", "LOGNORMAL"));
        assertEquals("parameter 'p99' is required for dist=lognormal", bad("ms", "20", "dist", "lognormal"));
        assertEquals("parameter 'p99' must be an integer in 20..60000", bad("ms", "20", "dist", "lognormal", "p99", "19"));
        assertEquals("parameter 'p99' must be an integer in 20..60000", bad("ms", "20", "dist", "lognormal", "p99", "60001"));
        assertEquals("parameter 'p99' must be an integer in 20..60000", bad("ms", "20", "dist", "lognormal", "p99", "200.5"));
        assertEquals("parameter 'p99' must be an integer in 20..60000", bad("ms", "20", "dist", "lognormal", "p99", "x"));
        assertEquals("parameter 'ms' must be an integer in 1..60000 for dist=lognormal",
                bad("dist", "lognormal", "p99", "100"));
        assertEquals("parameter 'p99' applies only to dist=lognormal", bad("ms", "20", "p99", "100"));
        assertEquals("parameter 'p99' applies only to dist=lognormal", bad("ms", "20", "dist", "exponential", "p99", "100"));
        for (String ms : List.of("x", "-1", "60001", "99999999999", "1.5")) {
            assertEquals("parameter 'ms' must be an integer in 0..60000", bad("ms", ms, "dist", "uniform"));
        }
    }

    private static StubDelay parse(String... pairs) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            params.put(pairs[i], List.of(pairs[i + 1]));
        }
        return StubDelay.parse(params);
    }

    private static String bad(String... pairs) {
        return assertThrows(IllegalArgumentException.class, () -> parse(pairs)).getMessage();
    }

    private static Stats draw(StubDelay delay) {
        SplittableRandom random = new SplittableRandom(42);
        int[] samples = new int[N];
        for (int i = 0; i < N; i++) {
            samples[i] = delay.sample(random);
        }
        Arrays.sort(samples);
        return new Stats(samples);
    }

    /** Within 3%: at 200,000 samples the sampling error of these figures is under 1%. */
    private static void near(double expected, double observed, String what) {
        assertTrue(Math.abs(observed - expected) <= 0.03 * expected, what + ": expected ~" + expected + ", observed " + observed);
    }

    private record Stats(int[] sorted) {
        double mean() {
            return Arrays.stream(sorted).asLongStream().sum() / (double) sorted.length;
        }

        int quantile(double q) {
            return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
        }
    }
}
