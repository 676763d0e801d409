package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        ok.put("steady_state", Map.of("reached", true, "seconds", 37, "warmup_s", 39.5, "drift", Map.of("drifting", false)));
        Map<String, Object> unsteady = new LinkedHashMap<>(ok);
        unsteady.put("target", "mvc");
        unsteady.put("driver", Map.of("saturated", false));
        unsteady.put("steady_state", Map.of("reached", false, "warmup_s", 180.2, "drift", Map.of("drifting", true)));
        List<String> lines = new ArrayList<>();
        Summary.print(List.of(ok, unsteady, ScenarioResult.failed("mvc", "plaintext", "cannot connect: 8292 created, 110 failures")), lines::add);
        assertEquals(4, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(1).startsWith("webflux  plaintext  10570.0     1.5   981.5  1200.0       0          37 s  driver saturated"), lines.get(1));
        assertTrue(lines.get(2).startsWith("mvc      plaintext  10570.0     1.5   981.5  1200.0       0  NOT in 180 s  drifting: no verdict, not steady: no verdict"), lines.get(2));
        assertTrue(lines.get(3).contains("FAILED: cannot connect: 8292 created, 110 failures"), lines.get(3));
    }
}
