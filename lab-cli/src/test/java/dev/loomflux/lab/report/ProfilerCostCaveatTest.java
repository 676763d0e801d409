package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ProfilerCost;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report says what the run's CPU sampler cost on its host, in the words of the run's log line. */
class ProfilerCostCaveatTest {
    private static Environment with(List<ProfilerCost> costs) {
        return new Environment("Linux", 2, "cpu", 1024, null, null, null, null, null, null, null, costs);
    }

    @Test
    void aSamplerPastTheLimitIsNamedWithJfrsOwnFigure() {
        ProfilerCost async = new ProfilerCost("async", List.of(1000L, 1000L, 1000L), List.of(300L, 400L, 350L), 65.0, 10, null);
        ProfilerCost jfr = new ProfilerCost("jfr", List.of(1000L, 1000L, 1000L), List.of(990L, 980L, 1000L), 1.0, 10, null);
        List<String> lines = Caveats.profilerCosts(with(List.of(async, jfr)));
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("65") && lines.get(0).contains("not the apps' own speed") && lines.get(0).contains("JFR (the default) cost it 1"),
                lines.get(0));
    }

    @Test
    void underTheLimitItIsOneShortLineAndWithoutACheckNone() {
        ProfilerCost async = new ProfilerCost("async", List.of(1000L, 1000L, 1000L), List.of(980L, 970L, 990L), 2.0, 10, null);
        List<String> lines = Caveats.profilerCosts(with(List.of(async)));
        assertEquals(1, lines.size());
        assertTrue(!lines.get(0).contains("not the apps' own speed") && lines.get(0).contains("2"), lines.get(0));
        assertEquals(List.of(), Caveats.profilerCosts(with(null)));
    }
}
