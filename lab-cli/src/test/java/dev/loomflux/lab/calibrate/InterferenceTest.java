package dev.loomflux.lab.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class InterferenceTest {
    private static final List<String> PROC_STAT = List.of(
            "cpu  300 10 200 5000 40 5 6 7 0 0",
            "cpu0 100 0 50 2500 20 2 3 4 0 0",
            "cpu1 200 10 150 2500 20 3 3 3 0 0",
            "intr 12345");

    @Test
    void busyTicksSumEverythingButIdleAndIowaitForTheChosenCpus() {
        assertEquals(100 + 50 + 2 + 3 + 4, Interference.busyTicks(PROC_STAT, List.of(0)));
        assertEquals(200 + 10 + 150 + 3 + 3 + 3, Interference.busyTicks(PROC_STAT, List.of(1)));
        assertEquals(159 + 369, Interference.busyTicks(PROC_STAT, List.of(0, 1)));
    }
}
