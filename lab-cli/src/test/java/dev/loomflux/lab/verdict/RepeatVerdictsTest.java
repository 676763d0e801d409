package dev.loomflux.lab.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.FlowRuns;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sequential design's summary over repeats of a flow: the flow and each of its steps judged on their own. */
class RepeatVerdictsTest {
    /** Three repeats each, webflux's read 20% slower every time, a few percent apart from repeat to repeat. */
    @Test
    void aFlowAndEachStepGetMediansAndVerdicts() {
        List<Result> results = new ArrayList<>();
        double[] spread = {1.0, 1.02, 0.98};
        for (int i = 0; i < 3; i++) {
            results.add(FlowRuns.result("mvc", 0, 0, "read", spread[i]).withRepeat(i + 1, null));
            results.add(FlowRuns.result("webflux", 0, 0, "read", 1.2 * spread[i]).withRepeat(i + 1, null));
        }
        RepeatSummary summary = RepeatVerdicts.of(results, List.of("mvc", "webflux"), List.of("crud"));
        assertEquals(List.of("crud", "crud/create", "crud/read", "crud/update", "crud/delete"),
                summary.verdicts().stream().map(RepeatSummary.PairVerdict::where).distinct().toList());
        RepeatSummary.Median flow = summary.estimates().get(0);
        assertEquals(List.of("crud", "throughput_rps"), List.of(flow.flow(), flow.metric()));
        assertNull(flow.step());
        assertEquals(1400.0, flow.median(), "the flow's iterations per second, not its requests'");
        RepeatSummary.PairVerdict read = summary.verdicts().stream().filter(v -> v.where().equals("crud/read") && v.metric().equals("p50_ms")).findFirst()
                .orElseThrow();
        assertEquals("mvc", read.clearWinner(), read.text());
        assertEquals("GET /items/${id}", read.request());
        assertTrue(summary.verdicts().stream().filter(v -> !v.where().equals("crud/read")).allMatch(v -> v.clearWinner() == null),
                "no other part differs");
        assertTrue(summary.verdicts().get(0).wholeScenario());
    }
}
