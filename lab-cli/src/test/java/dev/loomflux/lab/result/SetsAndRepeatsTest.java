package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A target's JVMs are sets in the paired design and repeats in the sequential one, in results.json and in what reads it. */
class SetsAndRepeatsTest {
    @TempDir
    Path dir;

    /** As the run writes it: the experiment counts its JVMs in its design's word, and each result is stamped with its JVM's number. */
    private RunRecord run(String design, Result stamped) {
        boolean paired = design.equals("paired");
        ExperimentDescription experiment = new ExperimentDescription("x", List.of(), List.of(), null, 0, 0, paired ? null : 2, paired ? 2 : null, null,
                List.of(), null, null, new ExperimentDescription.DesignDescription(design, null, null, null, null), "hyperfoil");
        ResultsFile file = new ResultsFile(dir, "id", null, experiment);
        file.add(stamped);
        return file.snapshot();
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

    /** Schema 11 and before wrote a paired run's sets as repeats: read, they are sets. */
    @Test
    void anOldPairedFileIsReadWithSets() throws IOException {
        ObjectNode old = (ObjectNode) Json.tree(run("paired", Result.failed("mvc", "json", "x").withSet(2, null)));
        old.put("schema", 11);
        ((ObjectNode) old.path("experiment")).set("repeat", ((ObjectNode) old.path("experiment")).remove("sets"));
        ((ObjectNode) old.path("results").get(0)).set("repeat", ((ObjectNode) old.path("results").get(0)).remove("set"));
        RunRecord read = RunRecord.fromTree(old);
        assertEquals(2, read.experiment().sets());
        assertEquals(null, read.experiment().repeat());
        assertEquals("set 2", read.results().get(0).jvmLabel());
        assertEquals(2, read.jvmsPerTarget());
    }
}
