package dev.loomflux.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ParamTest {
    @Test
    void absentMeansDefault() {
        assertEquals(20, Param.SIZE.parse(null));
        assertEquals(0, Param.DELAY.parse(""));
    }

    @Test
    void boundsAreInclusive() {
        assertEquals(1, Param.SIZE.parse("1"));
        assertEquals(100, Param.SIZE.parse("100"));
        assertEquals("parameter 'size' must be an integer in 1..100",
                assertThrows(BadParameterException.class, () -> Param.SIZE.parse("101")).getMessage());
        assertThrows(BadParameterException.class, () -> Param.DELAY.parse("-1"));
    }

    @Test
    void nonNumericIsRejected() {
        assertThrows(BadParameterException.class, () -> Param.WORK.parse("ten"));
        assertThrows(BadParameterException.class, () -> Param.WORK.parse("99999999999999"));
    }

    @Test
    void mixedTakesEachDefaultAndNamesTheBadParameter() {
        assertEquals(new MixedRequest(1_000, 0, 20, new Delay(0, Delay.Dist.FIXED, 0)), MixedRequest.parse(null, null, null, null, null, null));
        assertEquals(new MixedRequest(5, 2, 10, new Delay(30, Delay.Dist.UNIFORM, 0)), MixedRequest.parse("5", "2", "10", "30", "uniform", null));
        assertEquals("parameter 'page' must be an integer in 0..100000",
                assertThrows(BadParameterException.class, () -> MixedRequest.parse("5", "-1", "10", "30", null, null)).getMessage());
    }

    @Test
    void cpuWorkIsDeterministicAndDependsOnRounds() {
        assertEquals(CpuWork.digest(10), CpuWork.digest(10));
        assertEquals(64, CpuWork.digest(1).length());
        // SHA-256("loomflux"), computed independently with sha256sum
        assertEquals("3ac85964ce4992a484f18a7882b4b4aff88165f626ec43e75b09e2a48024c1bc", CpuWork.digest(1));
        assertEquals(false, CpuWork.digest(1).equals(CpuWork.digest(2)));
    }
}
