package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.FlowRuns;
import dev.loomflux.lab.result.Hardware;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.verdict.Comparisons;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test configuration names the CPU in full (environment.hardware), as text in report.html, and says when a file did not record it. */
class HardwareReportTest {
    @TempDir
    Path dir;

    private void write(Hardware hardware) throws IOException {
        Environment e = RunRecord.read(ReportMarkdownTest.PAIRED.resolve("results.json")).environment();
        Environment with = new Environment(e.os(), e.cpus(), e.cpuModel(), e.memoryMb(), e.jdk(), e.pinning(), e.database(), e.versions(), e.gitCommit(),
                e.gitDirty(), hardware);
        List<BlockRecord> blocks = FlowRuns.blocks("mvc", "webflux", 20, "read", 1.2, 7);
        Report.write(dir, FlowRuns.record(with, "mvc", "webflux", blocks, Comparisons.of(blocks, List.of("mvc", "webflux"))));
    }

    @Test
    void theHardwareRowNamesEveryFieldAndItsStringsStayText() throws IOException {
        write(new Hardware("GenuineIntel", "6", "207", "2", "0x1", "Intel(R) Xeon(R) Processor",
                List.of(new Hardware.Cache(1, "Data", "48K"), new Hardware.Cache(1, "Instruction", "32K"), new Hardware.Cache(3, "Unified", "307200K")),
                "<img src=x onerror=alert(1)>", "6.18.44-fc-v657", "86d9ce9c09e486e0"));
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("| hardware | GenuineIntel family 6 model 207 stepping 2, microcode 0x1, caches L1d 48K, L1i 32K, L3 307200K, "
                + "hypervisor <img src=x onerror=alert(1)>, kernel 6.18.44-fc-v657, CPU flags hash 86d9ce9c09e486e0 |"), md);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("hypervisor &lt;img src=x onerror=alert(1)&gt;, kernel 6.18.44-fc-v657"), html);
        assertFalse(html.contains("<img src=x"), "escaped");
    }

    /** A machine that gave some fields only: the others are left out, not "null". */
    @Test
    void fieldsTheMachineDidNotGiveAreLeftOut() throws IOException {
        write(new Hardware(null, null, null, null, null, null, List.of(), null, "14.1", null));
        assertTrue(Files.readString(dir.resolve("report.md")).contains("| hardware | kernel 14.1 |"));
    }

    @Test
    void aFileBeforeSchema18SaysTheHardwareWasNotRecorded() throws IOException {
        write(null);
        assertTrue(Files.readString(dir.resolve("report.md"))
                .contains("| hardware | not recorded (results.json before schema 18 names the CPU by its model name only) |"));
    }
}
