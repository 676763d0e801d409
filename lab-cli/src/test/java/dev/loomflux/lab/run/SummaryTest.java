package dev.loomflux.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.ScenarioResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void failedRowsAreShownWithTheirReasonNextToMeasuredOnes() {
        Map<String, Object> ok = new LinkedHashMap<>();
        ok.put("target", "webflux");
        ok.put("scenario", "plaintext");
        ok.put("status", "ok");
        ok.put("throughput_rps", 10570.0);
        ok.put("latency_ms", Map.of("p50", 1.5, "p99", 981.5, "max", 1200.0));
        ok.put("errors", Map.of("total", 0));
        ok.put("driver", Map.of("saturated", true));
        List<String> lines = new ArrayList<>();
        Summary.print(List.of(ok, ScenarioResult.failed("mvc", "plaintext", "cannot connect: 8292 created, 110 failures")), lines::add);
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(1).startsWith("webflux  plaintext  10570.0     1.5   981.5  1200.0       0  driver saturated"), lines.get(1));
        assertTrue(lines.get(2).contains("FAILED: cannot connect: 8292 created, 110 failures"), lines.get(2));
    }
}
