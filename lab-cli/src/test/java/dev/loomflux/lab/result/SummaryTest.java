package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void failedRowsAreShownWithTheirReasonNextToMeasuredOnes() {
        String measured = "{'target': '%s', 'scenario': 'plaintext', 'status': 'ok', 'throughput_rps': 10570.0, "
                + "'latency_ms': {'p50': 1.5, 'p99': 981.5, 'max': 1200.0}, 'errors': {'total': 0}, 'driver': {'saturated': %s}, "
                + "'steady_state': %s}";
        Result ok = Results.result(String.format(measured, "webflux", true,
                "{'reached': true, 'seconds': 37, 'warmup_s': 39.5, 'drift': {'drifting': false}, 'steady': true}"));
        Result unsteady = Results.result(String.format(measured, "mvc", false,
                "{'reached': false, 'warmup_s': 180.2, 'drift': {'drifting': true}, 'steady': false}"));
        List<String> lines = new ArrayList<>();
        Summary.print(List.of(ok, unsteady, Result.failed("mvc", "plaintext", "cannot connect: 8292 created, 110 failures")), lines::add);
        assertEquals(4, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(1).startsWith("webflux  plaintext  10570.0     1.5   981.5  1200.0       0          37 s  driver saturated"), lines.get(1));
        assertTrue(lines.get(2).startsWith("mvc      plaintext  10570.0     1.5   981.5  1200.0       0  NOT in 180 s  drifting: no verdict, not steady: no verdict"), lines.get(2));
        assertTrue(lines.get(3).contains("FAILED: cannot connect: 8292 created, 110 failures"), lines.get(3));
    }
}
