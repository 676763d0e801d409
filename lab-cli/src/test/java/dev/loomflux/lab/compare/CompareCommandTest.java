package dev.loomflux.lab.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.loomflux.lab.compare.CompareCli.compare;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.result.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compares a real run (committed fixture) with a copy that has a planted regression. */
class CompareCommandTest {
    private static final Path FIXTURE = Path.of("src/test/resources/fixtures/plaintext-3-targets/results.json");

    @TempDir
    Path dir;

    @Test
    void identicalRunsPassEveryThreshold() {
        CompareCli.Outcome o = compare(FIXTURE, FIXTURE, "--fail-on", "p99:+10%,throughput:-5%");
        assertEquals(0, o.code(), o.out());
        assertTrue(o.out().contains("mvc-vt   plaintext  throughput (rps)  27586.17  27586.17  +0.0%"), o.out());
        assertTrue(o.out().contains("compare: no threshold crossed"), o.out());
    }

    @Test
    void aPlantedP99RegressionFailsAndIsNamed() throws IOException {
        Path b = planted("webflux", "p99", 1.20, "throughput_rps", 1.0);
        CompareCli.Outcome o = compare(FIXTURE, b, "--fail-on", "p99:+10%,throughput:-5%", "--markdown", dir.resolve("cmp.md").toString());
        assertEquals(1, o.code(), o.out());
        assertTrue(o.out().contains("webflux  plaintext  p99 (ms)          17.17     20.60     +20.0%  REGRESSION (p99:+10.0%)"), o.out());
        assertTrue(o.out().contains("compare: REGRESSION"), o.out());
        String md = Files.readString(dir.resolve("cmp.md"));
        assertTrue(md.contains("| webflux | plaintext | p99 (ms) | 17.17 | 20.60 | +20.0% | REGRESSION (p99:+10.0%) |"), md);
    }

    @Test
    void aThroughputDropBelowTheThresholdFails() throws IOException {
        Path b = planted("mvc", "p99", 1.0, "throughput_rps", 0.90);
        assertEquals(1, compare(FIXTURE, b, "--fail-on", "throughput:-5%").code());
        assertEquals(0, compare(FIXTURE, b, "--fail-on", "throughput:-15%").code());
        // Without thresholds a comparison never fails.
        assertEquals(0, compare(FIXTURE, b).code());
    }

    /** A change between runs measured by different drivers, or pinned differently, may be that and not the targets. */
    @Test
    void runsMeasuredDifferentlySaySoBesideTheTable() throws IOException {
        ObjectNode root = (ObjectNode) Results.tree(FIXTURE);
        ((ObjectNode) root.path("experiment")).put("driver", "jmeter");
        ((ObjectNode) root.path("environment").path("versions")).put("jmeter", "5.6.3");
        ((ObjectNode) root.path("environment").path("pinning")).put("applied", false);
        Path b = dir.resolve("b.json");
        Results.write(b, root);
        CompareCli.Outcome o = compare(FIXTURE, b, "--markdown", dir.resolve("cmp.md").toString());
        String prefix = "measured differently (a change may be this, not the targets): ";
        assertTrue(o.out().contains(prefix + "load driver: hyperfoil 0.25.2 in A, jmeter 5.6.3 in B"), o.out());
        assertTrue(o.out().contains(prefix + "pinning: target CPUs 0, driver 1, support 1 in A, none in B"), o.out());
        assertEquals(2, o.out().lines().filter(l -> l.startsWith(prefix)).count(), o.out());
        assertTrue(Files.readString(dir.resolve("cmp.md")).contains("- " + prefix + "load driver: hyperfoil 0.25.2 in A, jmeter 5.6.3 in B"));
        assertFalse(compare(FIXTURE, FIXTURE).out().contains("measured differently"), "the same run: nothing differs");
    }

    /** Two runs whose mvc results carry CPU profiles: each category either run spent in, µs per request in A, in B, and the change. */
    @Test
    void cpuCategoriesAreComparedWhereBothResultsHaveProfiles() throws IOException {
        Path a = profiled("a.json", 10.0, 5.0);
        Path b = profiled("b.json", 12.5, 5.0);
        CompareCli.Outcome o = compare(a, b, "--markdown", dir.resolve("cmp.md").toString());
        assertEquals(0, o.code(), o.out());
        String table = o.out().substring(o.out().indexOf(CategoryChanges.TITLE));
        assertEquals(List.of(CategoryChanges.TITLE,
                "target  scenario   category   A   B      change",
                "mvc     plaintext  server-io  10  12.50  +2.50",
                "mvc     plaintext  dispatch   5   5      +0.00"), table.lines().limit(4).toList(), o.out());
        assertFalse(table.contains("reactor"), "a category neither run spent in: " + table);
        assertTrue(Files.readString(dir.resolve("cmp.md")).contains("| mvc | plaintext | server-io | 10 | 12.50 | +2.50 |"));
        assertFalse(compare(FIXTURE, FIXTURE).out().contains(CategoryChanges.TITLE), "no profiles: no table");
    }

    private Path profiled(String name, double serverIo, double dispatch) throws IOException {
        ObjectNode root = (ObjectNode) Results.tree(FIXTURE);
        root.withArray("results").forEach(r -> {
            if (r.path("target").asText().equals("mvc")) {
                ObjectNode profile = ((ObjectNode) r).putObject("profile").put("collapsed", "mvc.plaintext.collapsed").put("samples", 1000).put("truncated", 0);
                var categories = profile.putArray("categories");
                categories.addObject().put("category", "server-io").put("samples", 600).put("share", 0.6).put("us_per_request", serverIo);
                categories.addObject().put("category", "dispatch").put("samples", 400).put("share", 0.4).put("us_per_request", dispatch);
                categories.addObject().put("category", "reactor").put("samples", 0).put("share", 0.0).put("us_per_request", 0.0);
            }
        });
        Path out = dir.resolve(name);
        Results.write(out, root);
        return out;
    }

    @Test
    void badThresholdsAndFilesAreUsageErrors() {
        assertEquals(2, compare(FIXTURE, FIXTURE, "--fail-on", "p99>10").code());
        assertEquals(2, compare(FIXTURE, FIXTURE, "--fail-on", "latency:+10%").code());
        assertEquals(2, compare(FIXTURE, dir.resolve("missing")).code());
    }

    private Path planted(String target, String latencyKey, double latencyFactor, String topKey, double topFactor) throws IOException {
        ObjectNode root = (ObjectNode) Results.tree(FIXTURE);
        root.withArray("results").forEach(r -> {
            if (r.path("target").asText().equals(target)) {
                ObjectNode lat = (ObjectNode) r.path("latency_ms");
                lat.put(latencyKey, lat.path(latencyKey).asDouble() * latencyFactor);
                ((ObjectNode) r).put(topKey, r.path(topKey).asDouble() * topFactor);
            }
        });
        Path b = dir.resolve("b.json");
        Results.write(b, root);
        return b;
    }

    @Test
    void capacityRunsAreComparedByTheKneeOfEachSearchAndTheirMedian() throws IOException {
        Path a = capacityRun("a.json", "p99<200ms", 100, 110);
        Path b = capacityRun("b.json", "p99<200ms", 100, 80);
        CompareCli.Outcome o = compare(a, b, "--fail-on", "capacity:-10%");
        assertEquals(1, o.code(), o.out());
        assertTrue(o.out().contains("mvc-10  gateway r1      capacity (rps)  100  100  +0.0%"), o.out());
        assertTrue(o.out().contains("mvc-10  gateway r2      capacity (rps)  110  80   -27.3%  REGRESSION (capacity:-10.0%)"), o.out());
        assertTrue(o.out().contains("mvc-10  gateway median  capacity (rps)  105  90   -14.3%  REGRESSION (capacity:-10.0%)"), o.out());
        CompareCli.Outcome slo = compare(a, capacityRun("c.json", "p99<50ms", 100, 80));
        assertEquals(0, slo.code(), slo.out());
        assertTrue(slo.out().contains("not compared: mvc-10 gateway r1 capacity: A searched for p99<200ms, B for p99<50ms"), slo.out());
        assertTrue(!slo.out().contains("capacity (rps)"), "searches for different SLOs give no row: " + slo.out());
    }

    private Path capacityRun(String name, String slo, int first, int second) throws IOException {
        String search = "{\"target\": \"mvc-10\", \"scenario\": \"gateway\", \"repeat\": %d, \"slo\": \"%s\", \"capacity_rps\": %d, \"steps\": []}";
        Files.writeString(dir.resolve(name), "{\"schema\": 1, \"results\": [], \"capacity\": [" + String.format(search, 1, slo, first) + ", "
                + String.format(search, 2, slo, second) + "], \"capacity_summary\": [{\"target\": \"mvc-10\", \"scenario\": \"gateway\", \"slo\": \""
                + slo + "\", \"n\": 2, \"median_rps\": " + (first + second) / 2.0 + "}]}");
        return dir.resolve(name);
    }
}
