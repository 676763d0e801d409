package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A target's JVMs are sets in the paired design and repeats in the sequential one, in results.json and in what reads it. */
class SetsAndRepeatsTest {
    private static RunRecord run(String design, Result... results) {
        ExperimentDescription experiment = new ExperimentDescription("x", List.of(), List.of(), null, 0, 0, 2, null, null, List.of(), null, null,
                new ExperimentDescription.DesignDescription(design, null, null, null, null), "hyperfoil");
        return new RunRecord(RunRecord.SCHEMA, "id", "completed", null, null, null, experiment, List.of(results), null, null, null, null, null, null);
    }

    @Test
    void aPairedRunNumbersItsJvmsAsSets() {
        RunRecord paired = run("paired", Result.failed("mvc", "json", "x").withSet(2, null));
        JsonNode json = Json.tree(paired);
        assertEquals(2, json.path("experiment").path("sets").asInt(), json.toString());
        assertTrue(json.path("experiment").path("repeat").isMissingNode(), json.toString());
        assertEquals(2, json.path("results").get(0).path("set").asInt(), json.toString());
        assertTrue(json.path("results").get(0).path("repeat").isMissingNode(), json.toString());
        assertEquals(2, paired.jvmsPerTarget());
        assertEquals("set 2", paired.results().get(0).jvmLabel());
    }

    @Test
    void aSequentialRunNumbersThemAsRepeats() {
        RunRecord sequential = run("sequential", Result.failed("mvc", "json", "x").withRepeat(2, null));
        JsonNode json = Json.tree(sequential);
        assertEquals(2, json.path("experiment").path("repeat").asInt(), json.toString());
        assertTrue(json.path("experiment").path("sets").isMissingNode(), json.toString());
        assertEquals(2, json.path("results").get(0).path("repeat").asInt(), json.toString());
        assertTrue(json.path("results").get(0).path("set").isMissingNode(), json.toString());
        assertEquals(2, sequential.jvmsPerTarget());
        assertEquals("repeat 2", sequential.results().get(0).jvmLabel());
    }
}
