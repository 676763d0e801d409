package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.md from a real run's results.json: the tables carry the fixture's numbers. */
class ReportMarkdownTest {
    static final Path FIXTURE = Path.of("src/test/resources/fixtures/report-3-targets");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Path copyFixture(Path to) throws IOException {
        try (var files = Files.list(FIXTURE)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    @Test
    void tablesMatchTheFixtureCellByCell() throws IOException {
        Report.write(copyFixture(dir));
        List<String> md = Files.readAllLines(dir.resolve("report.md"));
        JsonNode root = JSON.readTree(dir.resolve("results.json").toFile());
        int checked = 0;
        for (JsonNode r : root.path("results")) {
            String scenario = r.path("scenario").asText();
            List<String> section = md.subList(md.indexOf("## Scenario " + scenario), md.size());
            List<String> latency = row(section, "**Response time (ms)**", r.path("target").asText());
            assertEquals(Cells.num(r.path("latency_ms").path("p99")), latency.get(5), scenario + " p99 " + latency);
            assertEquals(Cells.num(r.path("latency_ms").path("mean")), latency.get(1), scenario + " avg " + latency);
            List<String> tput = row(section, "**Throughput and reliability**", r.path("target").asText());
            assertEquals(Cells.num(r.path("throughput_rps")), tput.get(1), scenario + " rps " + tput);
            assertEquals(r.path("requests").asText(), tput.get(2));
            assertEquals(r.path("errors").path("total").asText(), tput.get(3));
            List<String> jvm = row(section, "**JVM internals over the measured window (JFR)**", r.path("target").asText());
            assertEquals(r.path("jvm").path("gc_pauses").asText(), jvm.get(1));
            assertEquals(Cells.num(r.path("jvm").path("peak_platform_threads")), jvm.get(6));
            checked++;
        }
        assertEquals(6, checked);
        String text = String.join("\n", md);
        assertTrue(text.contains("| mvc | steady | 0 to 5.01 | 82.8 - 101 (mean 95.4) | 298 - 454 | 49 | 35 |"), "mvc steady phase row");
        assertTrue(text.contains("- Throughput: mvc best at 5481 rps; mvc-vt 4262 rps (-22.3%"), text);
        assertTrue(text.contains("Closed model (fixed)"), "closed-model caveat");
        assertTrue(text.contains("| mvc | tomcat | 200 max threads | false | apache-httpclient5 500 | hikaricp 10 |"), "config parity for mvc");
    }

    @Test
    void aFailedResultAndAnUnstableWarmupBecomeCaveats() throws IOException {
        copyFixture(dir);
        ObjectNode root = (ObjectNode) JSON.readTree(dir.resolve("results.json").toFile());
        ObjectNode first = (ObjectNode) root.path("results").get(0);
        first.removeAll();
        first.put("target", "mvc").put("scenario", "plaintext").put("status", "failed").put("error", "target exited during the run (code 137)\nlog");
        ObjectNode warmup = (ObjectNode) root.path("results").get(1).path("warmup");
        warmup.put("stable", false);
        warmup.putArray("windows_rps").add(300.0).add(700.0);
        JSON.writeValue(dir.resolve("results.json").toFile(), root);
        Report.write(dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("- mvc plaintext failed: target exited during the run (code 137)\n"), md);
        assertTrue(md.contains("- mvc gateway-delay20: throughput was still changing at the end of warmup"), md);
        assertFalse(md.contains("- Throughput: mvc best"), "a failed result is not ranked");
    }

    /** The cells of the row for a target in the first table after the caption. */
    private static List<String> row(List<String> lines, String caption, String target) {
        int start = lines.indexOf(caption);
        assertTrue(start >= 0, caption);
        for (String l : lines.subList(start, lines.size())) {
            if (l.startsWith("| " + target + " |")) {
                return Arrays.stream(l.substring(1, l.length() - 1).split("\\|")).map(String::trim).toList();
            }
        }
        throw new AssertionError("no row for " + target + " after " + caption);
    }
}
