package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The efficiency figures a sweep cell compares, from a result's seconds and phases. */
class MetricTest {
    private static Result result(String phases) {
        return Results.result("{'target': 'mvc', 'scenario': 'gateway', 'status': 'ok', 'requests': 2000,"
                + " 'series': [{'t': 0, 'rps': 1000.0, 'errors': 0, 'users': 100, 'cpu_pct': 50.0, 'rss_mb': 500.0, 'threads': 30},"
                + "            {'t': 1, 'rps': 1000.0, 'errors': 0, 'users': 100, 'cpu_pct': 30.0, 'rss_mb': 508.0, 'threads': 31}]" + phases + "}");
    }

    @Test
    void rssPerConnectionIsTheGrowthOverTheIdleJvmPerThousandUsers() {
        // The CI sweep's mvc-10 at 100 users: idle 279.5 MB, peak 508; the old figure was 508 / 100 x 1000 = 5,080.
        Result r = result(", 'phases': [{'name': 'idle', 'from_s': -3, 'to_s': 0, 'samples': 1, 'target': {'rss_mb': {'min': 279.5, 'max': 279.5}}}]");
        assertEquals((508 - 279.5) / 100 * 1000, Metric.RSS_PER_USERS.read(r), 1e-9);
        assertEquals(508.0, Metric.RSS.read(r));
        assertEquals(31.0, Metric.THREADS.read(r));
        // 50% and 30% of a core over two seconds = 800 ms of CPU for 2,000 responses
        assertEquals(0.4, Metric.CPU_PER_REQUEST.read(r), 1e-9);
    }

    @Test
    void withoutAnIdleReadingThereIsNoFigure() {
        assertNull(Metric.RSS_PER_USERS.read(result("")));
        assertNull(Metric.RSS_PER_USERS.read(result(", 'phases': [{'name': 'idle', 'from_s': -3, 'to_s': 0, 'samples': 0}]")));
    }
}
