package dev.loomflux.lab.compare;

import static dev.loomflux.lab.compare.CompareCli.FIXTURES;
import static dev.loomflux.lab.compare.CompareCli.compare;
import static dev.loomflux.lab.compare.CompareCli.edited;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.compare.CompareCli.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./lab compare} of runs that recorded their hardware (environment.hardware), by copies of the paired fixture with a CPU written in. */
class CompareHardwareTest {
    private static final Path PAIRED = FIXTURES.resolve("paired-json");
    private static final String DIFFERENT = "measured on different hardware: microcode 0x1 in A, 0xa in B";
    private static final String ACROSS = "; measured on different hardware (B against A): the ratios may have moved with the machine";

    @TempDir
    Path dir;

    /** The paired fixture on an Intel Xeon of the given microcode, whose model name and os stay the fixture's. */
    private Path on(String name, String microcode) throws IOException {
        return edited(PAIRED, dir.resolve(name), root -> {
            ObjectNode hardware = ((ObjectNode) root.path("environment")).putObject("hardware");
            hardware.put("vendor", "GenuineIntel").put("family", "6").put("model", "207").put("stepping", "2").put("microcode", microcode)
                    .put("model_name", root.path("environment").path("cpu_model").asText()).put("hypervisor", "kvm").put("kernel", "6.18.44")
                    .put("flags_hash", "86d9ce9c09e486e0");
            hardware.putArray("caches").addObject().put("level", 2).put("type", "Unified").put("size", "2048K");
        });
    }

    @Test
    void aMicrocodeApartIsDifferentHardwareBesideTheTableAndInTheVerdictsLine() throws IOException {
        Path md = dir.resolve("cmp.md");
        Outcome o = compare(on("a.json", "0x1"), on("b.json", "0xa"), "--markdown", md.toString());
        assertEquals(0, o.code(), o.out());
        assertTrue(o.out().lines().anyMatch(DIFFERENT::equals), o.out());
        assertTrue(o.out().contains("verdicts: none changed from A to B" + ACROSS), o.out());
        assertFalse(o.out().contains("machine:"), "the hardware line says it: " + o.out());
        assertTrue(Files.readString(md).contains("- " + DIFFERENT), Files.readString(md));
    }

    @Test
    void theSameHardwareSaysNothing() throws IOException {
        Outcome o = compare(on("a.json", "0x1"), on("b.json", "0x1"));
        assertEquals(0, o.code(), o.out());
        assertFalse(o.out().contains("hardware"), o.out());
    }

    /** The fixture itself is older than environment.hardware: its hardware is unknown, and compare does not call it different. */
    @Test
    void aFileBeforeSchema18IsUnknownHardware() throws IOException {
        Outcome o = compare(PAIRED, on("b.json", "0x1"));
        assertEquals(0, o.code(), o.out());
        assertTrue(o.out().contains("hardware unknown for A (results.json before schema 18 names the CPU by its model name only)"), o.out());
        assertTrue(o.out().contains("verdicts: none changed from A to B; hardware unknown for A"), o.out());
        assertFalse(o.out().contains("different hardware"), o.out());
    }

    /** Both judgements of reproducibility, the paired runs' and the figures', say they were made across hardware, in Markdown too. */
    @Test
    void reproducibilityAcrossHardwareIsToldAsSuch() throws IOException {
        Path md = dir.resolve("repro.md");
        Outcome o = compare(on("a.json", "0x1"), on("b.json", "0xa"), "--reproducibility", "--markdown", md.toString());
        assertEquals(0, o.code(), o.out());
        for (String text : new String[] {o.out(), Files.readString(md)}) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith("paired: 2 runs: ") && l.endsWith(ACROSS)), text);
            assertTrue(text.lines().anyMatch(l -> l.startsWith("reproducibility: ") && l.endsWith(ACROSS)), text);
        }
        assertTrue(o.out().lines().anyMatch(DIFFERENT::equals), o.out());
    }

    /** A hardware field of the wrong kind is a one-line error naming the file and the field, no stack trace. */
    @Test
    void aMalformedHardwareIsOneLineNamingTheField() throws IOException {
        Path b = edited(PAIRED, dir.resolve("b.json"), root -> ((ObjectNode) root.path("environment")).put("hardware", "Intel"));
        Outcome o = compare(PAIRED, b);
        assertEquals(2, o.code(), o.out());
        assertEquals(1, o.out().lines().count(), o.out());
        assertTrue(o.out().startsWith("lab: B: " + b + ": environment.hardware: "), o.out());
    }
}
