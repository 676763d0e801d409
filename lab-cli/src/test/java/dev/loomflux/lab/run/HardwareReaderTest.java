package dev.loomflux.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.loomflux.lab.result.Hardware;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /proc/cpuinfo as two machines wrote it (resources/cpuinfo: this 2-core KVM guest's Intel Xeon, and an AMD EPYC guest's
 * block written out by hand in the kernel's format), sysfs caches from a directory made here, and input that gives nothing.
 */
class HardwareReaderTest {
    private static final List<Hardware.Cache> CACHES = List.of(new Hardware.Cache(1, "Data", "48K"));

    @TempDir
    Path dir;

    private static String cpuinfo(String name) throws IOException {
        return Files.readString(Path.of("src/test/resources/cpuinfo", name));
    }

    @Test
    void anIntelXeonIsNamedInFull() throws IOException {
        Hardware h = HardwareReader.of(cpuinfo("intel-xeon.txt"), CACHES, "kvm", "6.18.44-fc-v657");
        assertEquals(new Hardware("GenuineIntel", "6", "207", "2", "0x1", "Intel(R) Xeon(R) Processor", CACHES, "kvm", "6.18.44-fc-v657",
                h.flagsHash()), h);
        assertEquals(16, h.flagsHash().length());
    }

    /** Without systemd-detect-virt the hypervisor flag says there is one, not which. */
    @Test
    void anAmdEpycWithoutSystemdDetectVirt() throws IOException {
        Hardware h = HardwareReader.of(cpuinfo("amd-epyc.txt"), List.of(), null, "6.1.0");
        assertEquals(List.of("AuthenticAMD", "25", "17", "1", "0xa10113e", "AMD EPYC 9R14 96-Core Processor", "unknown hypervisor"),
                List.of(h.vendor(), h.family(), h.model(), h.stepping(), h.microcode(), h.modelName(), h.hypervisor()));
        assertNull(h.cachesDescribed());
        assertNotEquals(HardwareReader.of(cpuinfo("intel-xeon.txt"), List.of(), null, "6.1.0").flagsHash(), h.flagsHash());
    }

    /** The hash is of the set of flags: their order and spacing do not change it, one flag more does. */
    @Test
    void theFlagsHashIsTheSortedFlagsSha256() {
        // printf 'fpu sse sse2' | sha256sum, its first 16 hex digits
        assertEquals("dd1c62df520faaf4", HardwareReader.flagsHash("sse2 fpu  sse"));
        assertEquals("dd1c62df520faaf4", HardwareReader.of("flags\t\t: sse sse2 fpu\n", List.of(), null, null).flagsHash());
        assertNotEquals("dd1c62df520faaf4", HardwareReader.flagsHash("sse2 fpu sse avx"));
    }

    @Test
    void onlyTheFirstProcessorIsRead() {
        Hardware h = HardwareReader.of("processor\t: 0\nstepping\t: unknown\nflags\t\t: fpu\n\nprocessor\t: 1\nstepping\t: 3\nmicrocode\t: 0xa\n",
                List.of(), null, null);
        assertEquals("unknown", h.stepping());
        assertNull(h.microcode(), "the second processor's");
        assertEquals("none", h.hypervisor(), "flags without hypervisor: bare metal");
    }

    /** Another OS, or an unreadable /proc: every field unknown, no failure. */
    @Test
    void cpuinfoThatGivesNothingLeavesEveryFieldNull() {
        for (String text : List.of("", "\n\n", "no colon here\n: no key\nvendor_id\t:\n")) {
            Hardware h = HardwareReader.of(text, List.of(), null, null);
            assertEquals(new Hardware(null, null, null, null, null, null, List.of(), null, null, null), h, text);
        }
    }

    @Test
    void cachesAreReadInIndexOrderAndAnUnreadableOneIsLeftOut() throws IOException {
        cache("index0", "1", "Data", "48K");
        cache("index1", "1", "Instruction", "32K");
        cache("index2", "2", "Unified", "2048K");
        cache("index10", "3", "Unified", "307200K");
        cache("index3", "x", "Unified", "1K");
        Files.createDirectories(dir.resolve("index4"));
        Files.writeString(dir.resolve("uevent"), "");
        List<Hardware.Cache> caches = HardwareReader.caches(dir);
        assertEquals("L1d 48K, L1i 32K, L2 2048K, L3 307200K", new Hardware(null, null, null, null, null, null, caches, null, null, null).cachesDescribed());
        assertEquals(List.of(), HardwareReader.caches(dir.resolve("absent")));
    }

    private void cache(String index, String level, String type, String size) throws IOException {
        Path d = Files.createDirectories(dir.resolve(index));
        Files.writeString(d.resolve("level"), level + "\n");
        Files.writeString(d.resolve("type"), type + "\n");
        Files.writeString(d.resolve("size"), size + "\n");
    }
}
