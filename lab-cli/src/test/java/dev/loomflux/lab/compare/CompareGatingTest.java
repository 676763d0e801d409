package dev.loomflux.lab.compare;

import static dev.loomflux.lab.compare.CompareCli.REPEATS_A;
import static dev.loomflux.lab.compare.CompareCli.REPEATS_B;
import static dev.loomflux.lab.compare.CompareCli.SINGLE_A;
import static dev.loomflux.lab.compare.CompareCli.SINGLE_B;
import static dev.loomflux.lab.compare.CompareCli.compare;
import static dev.loomflux.lab.compare.CompareCli.edited;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.compare.CompareCli.Outcome;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Results are matched by repeat and capacity steps by offered rate, and an unsteady result never makes a regression. */
class CompareGatingTest {
    @TempDir
    Path dir;

    @Test
    void repeatsArePairedByNumberAndARepeat2RegressionIsFound() {
        Outcome o = compare(REPEATS_A, REPEATS_B, "--fail-on", "p99:+10%");
        assertEquals(1, o.code(), o.out());
        // 2 targets x 3 repeats x 7 metrics
        assertEquals(42, o.out().lines().filter(l -> l.contains("gateway-delay20 r")).count(), o.out());
        assertTrue(o.out().contains("mvc     gateway-delay20 r2  p99 (ms)          30     39.60  +32.0%  REGRESSION (p99:+10.0%)"), o.out());
        // The last repeat, all that the target x scenario key used to keep, has not changed.
        assertTrue(o.out().contains("mvc     gateway-delay20 r3  p99 (ms)          29.80  29.80  +0.0%\n"), o.out());
        assertTrue(o.out().contains("mvc-vt  gateway-delay20 r2  p99 (ms)          27.40  29.90  +9.1%\n"), o.out());
    }

    @Test
    void theLastRepeatAloneHidesTheRegression() throws IOException {
        // What matching on target x scenario compared: the last repeat of each side.
        Path a = edited(REPEATS_A, dir.resolve("a.json"), CompareGatingTest::keepLastRepeat);
        Path b = edited(REPEATS_B, dir.resolve("b.json"), CompareGatingTest::keepLastRepeat);
        assertEquals(0, compare(a, b, "--fail-on", "p99:+10%").code());
    }

    @Test
    void singleRunsStayUnlabelledAndUnpairedRepeatsAreNamed() {
        Outcome o = compare(SINGLE_A, REPEATS_B);
        assertEquals(0, o.code(), o.out());
        assertTrue(o.out().contains("mvc     gateway-delay20 r1  throughput (rps)  2312   2371   +2.6%"), o.out());
        assertTrue(o.out().contains("not compared: mvc gateway-delay20 r2 only in B"), o.out());
        assertTrue(o.out().contains("not compared: webflux plaintext only in A"), o.out());
        assertFalse(compare(SINGLE_A, SINGLE_B).out().contains(" r1 "));
    }

    @Test
    void anUnsteadyResultNeverRegressesEvenPastTheThreshold() {
        Outcome o = compare(SINGLE_A, SINGLE_B, "--fail-on", "throughput:-10%,p99:+10%");
        assertEquals(0, o.code(), o.out());
        assertTrue(o.out().contains("webflux  plaintext        throughput (rps)  14950     11960     -20.0%  not steady (B)"), o.out());
        assertTrue(o.out().contains("mvc-vt   gateway-delay20  p99 (ms)          27.50     33        +20.0%  not steady (A, B)"), o.out());
        assertTrue(o.out().contains("not steady: webflux plaintext (B), mvc-vt gateway-delay20 (A, B); their changes count as no regression: "
                + "re-run with a longer --warmup"), o.out());
        assertTrue(o.out().contains("compare: no threshold crossed by a steady result (throughput:-10%, p99:+10%); "
                + "3 crossing(s) by unsteady results not counted"), o.out());
        assertFalse(o.out().contains("REGRESSION"), o.out());
    }

    @Test
    void aSteadyResultStillRegresses() throws IOException {
        // mvc plaintext fell 8.0% and was steady in both runs.
        Outcome o = compare(SINGLE_A, SINGLE_B, "--fail-on", "throughput:-5%");
        assertEquals(1, o.code(), o.out());
        assertTrue(o.out().contains("mvc      plaintext        throughput (rps)  15878.30  14608     -8.0%   REGRESSION (throughput:-5.0%)"), o.out());
        assertTrue(o.out().contains("webflux  plaintext        throughput (rps)  14950     11960     -20.0%  not steady (B)"), o.out());
        // The same -20% once webflux's result is steady.
        Path b = edited(SINGLE_B, dir.resolve("b.json"), root -> root.withArray("results").forEach(r -> {
            if (r.path("steady_state").isObject()) {
                ((ObjectNode) r.path("steady_state")).put("steady", true);
            }
        }));
        Outcome steady = compare(SINGLE_A, b, "--fail-on", "throughput:-10%");
        assertEquals(1, steady.code(), steady.out());
        assertTrue(steady.out().contains("webflux  plaintext        throughput (rps)  14950     11960     -20.0%  REGRESSION (throughput:-10.0%)"), steady.out());
        assertTrue(steady.out().contains("not steady: mvc-vt gateway-delay20 (A)"), steady.out());
    }

    @Test
    void capacityStepsArePairedByTheRateTheyOffered() throws IOException {
        // Both searches tried 1000 and 2000 rps; after that A tried 3000 and B 1500: the same step number, other rates.
        Path a = edited(SINGLE_A, dir.resolve("a.json"), root -> steps(root, new double[] {1000, 2000, 3000}, new double[] {1000, 2000, 2100}));
        Path b = edited(SINGLE_A, dir.resolve("b.json"), root -> steps(root, new double[] {1000, 2000, 1500}, new double[] {1000, 1500, 1500}));
        Outcome o = compare(a, b, "--fail-on", "throughput:-10%");
        assertEquals(1, o.code(), o.out());
        assertTrue(o.out().contains("mvc     plaintext at 1000 rps  throughput (rps)  1000   1000   +0.0%\n"), o.out());
        assertTrue(o.out().contains("mvc     plaintext at 2000 rps  throughput (rps)  2000   1500   -25.0%  REGRESSION (throughput:-10.0%)"), o.out());
        assertTrue(o.out().contains("not compared: mvc plaintext at 3000 rps only in A"), o.out());
        assertTrue(o.out().contains("not compared: mvc plaintext at 1500 rps only in B"), o.out());
        assertTrue(!o.out().contains("2100"), "step 3 of A (3000 rps offered) is not set against step 3 of B (1500): " + o.out());
    }

    private static void keepLastRepeat(ObjectNode root) {
        ArrayNode results = root.withArray("results");
        for (int i = results.size() - 1; i >= 0; i--) {
            if (results.get(i).path("repeat").asInt() != 3) {
                results.remove(i);
            }
        }
    }

    /** Capacity steps of mvc plaintext at the given offered rates and throughputs, as ./lab capacity writes them. */
    private static void steps(ObjectNode root, double[] offered, double[] throughput) {
        JsonNode first = root.withArray("results").get(0);
        ArrayNode results = root.putArray("results");
        for (int i = 0; i < offered.length; i++) {
            ObjectNode r = first.deepCopy();
            r.put("step", i + 1).put("offered_rps", offered[i]).put("throughput_rps", throughput[i]);
            results.add(r);
        }
    }
}
