package dev.loomflux.lab.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.report.HistoryReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryTest {
    private static History gate(String runId, String label, double baseOverHead) {
        Gate.Check t = Gate.check(GateTest.base("throughput", baseOverHead, baseOverHead * 0.97, baseOverHead * 1.03, null), 5);
        Gate.Check aa = Gate.check(GateTest.base("throughput", 1.0, 0.98, 1.02, null), 5);
        Gate g = new Gate("base", "head", 5, List.of(t), List.of(aa), List.of());
        return new History(runId, "2026-12-03T03:00:00Z", "mvc", label, label, 5, g.exitCode(), g.checks(), g.aa());
    }

    @Test
    void eachGateIsALineReadBackAsItWasWritten(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(History.FILE);
        List<History> written = List.of(gate("r1", "a1b2c3", 1.0), gate("r2", "<script>alert(1)</script>", 1.25));
        written.forEach(h -> History.append(file, h));
        assertEquals(2, Files.readAllLines(file).size());
        assertEquals(written, History.read(file));
        assertEquals(Gate.Outcome.REGRESSION, History.read(file).get(1).checks().get(0).outcome());
        Path html = HistoryReport.write(History.read(file), dir);
        String page = Files.readString(html);
        assertFalse(page.contains("<script>alert(1)"), "a label is text");
        assertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        String md = Files.readString(dir.resolve("ab-history.md"));
        assertTrue(md.contains("| r1 | a1b2c3 | mvc | 1.000 | 0.971-1.031 | 15 | equivalent | 0 |") && md.contains("| regression | 1 |"), md);
    }

    @Test
    void aLineThatIsNoGatesIsOneLineNamingFileAndLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(History.FILE);
        History.append(file, gate("r1", "x", 1.0));
        Files.writeString(file, "{not json\n", java.nio.file.StandardOpenOption.APPEND);
        UsageException e = assertThrows(UsageException.class, () -> History.read(file));
        assertTrue(e.getMessage().startsWith(file + ":2: not a gate's line"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
