package dev.loomflux.lab.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.Hardware;
import dev.loomflux.lab.result.RunRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two runs whose CPUs share a model name but not a stepping or a microcode were measured on different hardware; old files on unknown. */
class HardwareDifferenceTest {
    private static final List<Hardware.Cache> CACHES = List.of(new Hardware.Cache(1, "Data", "48K"), new Hardware.Cache(2, "Unified", "2048K"));

    private static Hardware xeon(String stepping, String microcode) {
        return new Hardware("GenuineIntel", "6", "207", stepping, microcode, "Intel(R) Xeon(R) Processor", CACHES, "kvm", "6.18.44", "86d9ce9c09e486e0");
    }

    private static RunRecord run(Hardware hardware) {
        Environment env = new Environment("Linux 6.18.44 amd64", 2, "Intel(R) Xeon(R) Processor", 24000, null, null, null, Map.of(), null, null, hardware);
        return new RunRecord(new RunRecord.Header(18, "run", "completed", null, null), env, null, List.of(), null, null);
    }

    @Test
    void theSameHardwareIsNotFlagged() {
        assertNull(HardwareDifference.line(run(xeon("2", "0x1")), run(xeon("2", "0x1")), "B"));
        assertEquals("", HardwareDifference.judged(List.of(run(xeon("2", "0x1")), run(xeon("2", "0x1")), run(xeon("2", "0x1")))));
    }

    @Test
    void anotherSteppingAloneIsDifferentHardware() {
        assertEquals("measured on different hardware: stepping 2 in A, 3 in B", HardwareDifference.line(run(xeon("2", "0x1")), run(xeon("3", "0x1")), "B"));
    }

    @Test
    void anotherMicrocodeAloneIsDifferentHardware() {
        assertEquals("measured on different hardware: microcode 0x1 in A, 0xa in run 3",
                HardwareDifference.line(run(xeon("2", "0x1")), run(xeon("2", "0xa")), "run 3"));
    }

    /** Each field counts; one the machine did not give reads "unknown" against one it did. */
    @Test
    void everyFieldThatDiffersIsNamed() {
        Hardware epyc = new Hardware("AuthenticAMD", "25", "17", "1", null, "AMD EPYC 9R14 96-Core Processor", List.of(), "none", "6.1.0",
                "0123456789abcdef");
        assertEquals("measured on different hardware: vendor GenuineIntel in A, AuthenticAMD in B; family 6 in A, 25 in B; model 207 in A, 17 in B; "
                        + "stepping 2 in A, 1 in B; microcode 0x1 in A, unknown in B; model name Intel(R) Xeon(R) Processor in A, AMD EPYC 9R14 96-Core Processor in B; "
                        + "caches L1d 48K, L2 2048K in A, unknown in B; hypervisor kvm in A, none in B; kernel 6.18.44 in A, 6.1.0 in B; "
                        + "CPU flags hash 86d9ce9c09e486e0 in A, 0123456789abcdef in B",
                HardwareDifference.line(run(xeon("2", "0x1")), run(epyc), "B"));
    }

    /** A file from before environment.hardware (or without an environment) is unknown, not different, even beside one that recorded its hardware. */
    @Test
    void aFileWithoutHardwareIsUnknownNotDifferent() {
        RunRecord old = run(null);
        RunRecord none = new RunRecord(new RunRecord.Header(17, "run", "completed", null, null), null, null, List.of(), null, null);
        String why = " (results.json before schema 18 names the CPU by its model name only)";
        assertEquals("hardware unknown for A" + why, HardwareDifference.line(old, run(xeon("2", "0x1")), "B"));
        assertEquals("hardware unknown for B" + why, HardwareDifference.line(run(xeon("2", "0x1")), none, "B"));
        assertEquals("hardware unknown for A and B" + why, HardwareDifference.line(old, old, "B"));
    }

    /** A judgement over several runs names those on hardware other than A's, and those of unknown hardware. */
    @Test
    void aJudgementAcrossHardwareSaysSo() {
        assertEquals("; measured on different hardware (run 3 against A): the ratios may have moved with the machine",
                HardwareDifference.judged(List.of(run(xeon("2", "0x1")), run(xeon("2", "0x1")), run(xeon("3", "0x1")))));
        assertEquals("; measured on different hardware (B against A): the ratios may have moved with the machine; hardware unknown for run 3",
                HardwareDifference.judged(List.of(run(xeon("2", "0x1")), run(xeon("2", "0xa")), run(null))));
        assertEquals("; hardware unknown for A", HardwareDifference.judged(List.of(run(null), run(xeon("2", "0x1")))));
    }
}
