package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** environment.profiler_costs as docs/results-schema.md has it: written when checked, absent when not, read back the same. */
class ProfilerCostJsonTest {
    private static final Environment BARE = new Environment("Linux 6.18.44 amd64", 2, "AMD EPYC", 24000, null, null, null, Map.of(), null, null, null);

    @Test
    void theCheckedSamplersFiguresAreInTheEnvironmentAndReadBack() throws Exception {
        ProfilerCost async = new ProfilerCost("async", List.of(1_000_000L, 980_000L, 1_010_000L), List.of(370_000L, 362_000L, 380_000L),
                63.1, 10, null);
        ProfilerCost jfr = new ProfilerCost("jfr", List.of(1_000_000L), List.of(), null, 10, "stopped");
        Environment env = BARE.withProfilerCosts(List.of(async, jfr));
        JsonNode written = Json.MAPPER.valueToTree(env).path("profiler_costs");
        assertEquals(2, written.size());
        List<String> names = new ArrayList<>();
        written.get(0).fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("profiler", "without_ops_per_s", "with_ops_per_s", "cost_pct", "limit_pct"), names, "no note when measured, no 'over'");
        assertEquals(63.1, written.get(0).path("cost_pct").asDouble());
        assertFalse(written.get(1).has("cost_pct"));
        assertEquals("stopped", written.get(1).path("note").asText());
        assertEquals(env, Json.MAPPER.treeToValue(Json.MAPPER.valueToTree(env), Environment.class));
    }

    @Test
    void aRunThatCheckedNothingHasNoField() {
        assertFalse(Json.MAPPER.valueToTree(BARE.withProfilerCosts(List.of())).has("profiler_costs"));
        assertTrue(Json.MAPPER.valueToTree(BARE).has("cpu_model"));
    }
}
