package dev.loomflux.lab.compare;

import static dev.loomflux.lab.compare.CompareCli.REPEATS_A;
import static dev.loomflux.lab.compare.CompareCli.REPEATS_B;
import static dev.loomflux.lab.compare.CompareCli.SINGLE_A;
import static dev.loomflux.lab.compare.CompareCli.SINGLE_B;
import static dev.loomflux.lab.compare.CompareCli.compare;
import static dev.loomflux.lab.compare.CompareCli.edited;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.compare.CompareCli.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compare --reproducibility}: figures from the hand-written fixtures, computed by hand. */
class CompareReproducibilityTest {
    @TempDir
    Path dir;

    @Test
    void singleRunsRatiosGoalsAndRankings() throws IOException {
        Path md = dir.resolve("repro.md");
        Outcome o = compare(SINGLE_A, SINGLE_B, "--reproducibility", "--markdown", md.toString());
        assertEquals(0, o.code(), o.out());
        // 14608 / 15878.3 = 0.91999, 2.52 / 2.47 = 1.02024, 9.31 / 9.04 = 1.02987
        assertTrue(o.out().contains("mvc      plaintext        15878.30      14608         0.920      1.020    1.030    yes          ok"), o.out());
        // 15680.5 / 15602.5 = 1.0049991: rounds up
        assertTrue(o.out().contains("mvc-vt   plaintext        15602.50      15680.50      1.005      0.989    1.017    yes          ok"), o.out());
        assertTrue(o.out().contains("webflux  plaintext        14950         11960         0.800      1.200    1.285    no: B        MISSED"), o.out());
        assertTrue(o.out().contains("mvc-vt   gateway-delay20  2336          2290          0.980      1.023    1.200    no: A, B     ok"), o.out());
        // mvc leads plaintext throughput in A (15878.3 > 15602.5), mvc-vt in B (15680.5 > 14608).
        assertTrue(o.out().contains("plaintext        throughput_rps  mvc        mvc-vt     rank changed"), o.out());
        assertTrue(o.out().contains("plaintext        p50_ms          webflux    webflux    agree"), o.out());
        assertTrue(o.out().contains("reproducibility: throughput ratios min-max 0.800-1.005; 5 of 6 within 0.90-1.10; "
                + "p50 within +-10%: 5 of 6; verdict flips: n/a (single runs); rank changes: 1"), o.out());
        String markdown = Files.readString(md);
        assertTrue(markdown.contains("| webflux | plaintext | 14950 | 11960 | 0.800 | 1.200 | 1.285 | no: B | MISSED |"), markdown);
        assertTrue(markdown.contains("| plaintext | throughput_rps | mvc | mvc-vt | rank changed |"), markdown);
    }

    @Test
    void repeatedRunsCompareTheirVerdicts() {
        Outcome o = compare(REPEATS_A, REPEATS_B, "--reproducibility");
        assertEquals(0, o.code(), o.out());
        // 2380 / 2295 = 1.03704, 39.6 / 30.0 = 1.32
        assertTrue(o.out().contains("mvc     gateway-delay20 r2  2295          2380          1.037      0.995    1.320    yes          ok"), o.out());
        assertTrue(o.out().contains("gateway-delay20  throughput_rps  mvc vs mvc-vt  mvc-vt ahead  mvc ahead   FLIP"), o.out());
        assertTrue(o.out().contains("gateway-delay20  p50_ms          mvc vs mvc-vt  no verdict    no verdict  agree"), o.out());
        assertTrue(o.out().contains("gateway-delay20  p99_ms          mvc vs mvc-vt  mvc-vt ahead  no verdict  weaker"), o.out());
        // Medians over 3 repeats: mvc 2310 -> 2371 (1.02641), p50 21.3 -> 21.2 (0.99531), p99 30.0 -> 30.1 (1.00333);
        // mvc-vt 2350 -> 2340 (0.99574), p50 21.3 -> 21.3, p99 27.1 -> 27.3 (1.00738).
        assertTrue(o.out().contains("medians over repeats (summary.estimates)"), o.out());
        assertTrue(hasRow(o.out(), "mvc gateway-delay20 2310 2371 1.026 0.995 1.003 3 / 3 ok"), o.out());
        assertTrue(hasRow(o.out(), "mvc-vt gateway-delay20 2350 2340 0.996 1.000 1.007 3 / 3 ok"), o.out());
        // The goal is judged on the medians, not on each of the six repeats (0.986-1.037).
        assertTrue(o.out().contains("reproducibility: medians over repeats: throughput ratios min-max 0.996-1.026; 2 of 2 within 0.90-1.10; "
                + "p50 within +-10%: 2 of 2; verdict flips: 1 (weaker: 1)"), o.out());
    }

    @Test
    void aMissedMedianIsMissedEvenWhenOneRepeatIsClose() throws IOException {
        // B's mvc repeats at 0.8x A's median except repeat 1, which matches A exactly.
        Path b = edited(REPEATS_B, dir.resolve("b.json"), root -> {
            root.withArray("results").forEach(r -> {
                if (r.path("target").asText().equals("mvc")) {
                    ((ObjectNode) r).put("throughput_rps", r.path("repeat").asInt() == 1 ? 2310.0 : 1848.0);
                }
            });
            ((ObjectNode) root.path("summary")).withArray("estimates").forEach(e -> {
                if (e.path("target").asText().equals("mvc") && e.path("metric").asText().equals("throughput_rps")) {
                    ((ObjectNode) e).put("median", 1848.0);
                }
            });
        });
        Outcome o = compare(REPEATS_A, b, "--reproducibility");
        assertEquals(0, o.code(), o.out());
        assertTrue(hasRow(o.out(), "mvc gateway-delay20 2310 1848 0.800 0.995 1.003 3 / 3 MISSED"), o.out());
        assertTrue(o.out().contains("medians over repeats: throughput ratios min-max 0.800-0.996; 1 of 2 within 0.90-1.10"), o.out());
    }

    /** A line of a plain table whose cells, split on runs of spaces, read as {@code cells}. */
    private static boolean hasRow(String out, String cells) {
        return out.lines().anyMatch(l -> l.trim().replaceAll("\\s+", " ").equals(cells));
    }

    @Test
    void theGoalIsJudgedOnThePrintedRatio() throws IOException {
        Path b = edited(SINGLE_A, dir.resolve("b.json"), root -> root.withArray("results").forEach(r -> {
            double t = r.path("throughput_rps").asDouble();
            // mvc plaintext at 1.1004 (prints 1.100: ok), mvc-vt plaintext at 1.1006 (prints 1.101: MISSED)
            if (r.path("scenario").asText().equals("plaintext") && !r.path("target").asText().equals("webflux")) {
                ((ObjectNode) r).put("throughput_rps", t * (r.path("target").asText().equals("mvc") ? 1.1004 : 1.1006));
            }
        }));
        Outcome o = compare(SINGLE_A, b, "--reproducibility");
        assertEquals(0, o.code(), o.out());
        assertTrue(o.out().contains("1.100      1.000    1.000    yes          ok"), o.out());
        assertTrue(o.out().contains("1.101      1.000    1.000    yes          MISSED"), o.out());
        assertTrue(o.out().contains("throughput ratios min-max 1.000-1.101; 5 of 6 within 0.90-1.10"), o.out());
    }

    @Test
    void badInputIsAUsageErrorAndAMissedGoalIsNot() {
        assertEquals(2, compare(SINGLE_A, dir.resolve("missing"), "--reproducibility").code());
        assertEquals(2, compare(SINGLE_A, SINGLE_B, "--reproducibility", "--fail-on", "p99:+10%").code());
        assertEquals(0, compare(SINGLE_A, SINGLE_B, "--reproducibility").code());
    }
}
