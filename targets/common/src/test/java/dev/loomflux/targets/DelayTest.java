package dev.loomflux.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DelayTest {
    @Test
    void absentDistIsTheFixedRequestOfBefore() {
        assertEquals("/delay?ms=0", Delay.parse(null, null, null).path());
        assertEquals("/delay?ms=20", Delay.parse("20", "", "").path());
        assertEquals("/delay?ms=20", Delay.parse("20", "fixed", null).path());
    }

    @Test
    void distAndP99AreForwarded() {
        assertEquals(new Delay(20, Delay.Dist.LOGNORMAL, 200), Delay.parse("20", "lognormal", "200"));
        assertEquals("/delay?ms=20&dist=lognormal&p99=200", Delay.parse("20", "lognormal", "200").path());
        assertEquals("/delay?ms=20&dist=lognormal&p99=20", Delay.parse("20", "lognormal", "20").path());
        assertEquals("/delay?ms=20&dist=uniform", Delay.parse("20", "uniform", null).path());
        assertEquals("/delay?ms=0&dist=exponential", Delay.parse(null, "exponential", null).path());
    }

    @Test
    void badValuesGiveOneLineMessages() {
        assertEquals("parameter 'dist' must be one of fixed, uniform, exponential, lognormal", bad("20", "normal", null));
        assertEquals("parameter 'dist' must be one of fixed, uniform, exponential, lognormal", bad("20", "Uniform", null));
        assertEquals("parameter 'p99' is required for dist=lognormal", bad("20", "lognormal", null));
        assertEquals("parameter 'p99' is required for dist=lognormal", bad("20", "lognormal", ""));
        assertEquals("parameter 'p99' must be an integer in 20..5000", bad("20", "lognormal", "19"));
        assertEquals("parameter 'p99' must be an integer in 20..5000", bad("20", "lognormal", "5001"));
        assertEquals("parameter 'p99' must be an integer in 20..5000", bad("20", "lognormal", "2e2"));
        assertEquals("parameter 'delay' must be an integer in 1..5000 for dist=lognormal", bad(null, "lognormal", "100"));
        assertEquals("parameter 'p99' applies only to dist=lognormal", bad("20", null, "100"));
        assertEquals("parameter 'p99' applies only to dist=lognormal", bad("20", "uniform", "100"));
        assertEquals("parameter 'delay' must be an integer in 0..5000", bad("5001", "lognormal", "100"));
    }

    private static String bad(String delay, String dist, String p99) {
        return assertThrows(BadParameterException.class, () -> Delay.parse(delay, dist, p99)).getMessage();
    }
}
