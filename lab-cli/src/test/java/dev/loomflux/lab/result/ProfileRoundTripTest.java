package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A result's CPU profile in results.json (schema 14): written under the names docs/results-schema.md gives it and read back
 * whole; a result without one, and a category without µs per request, leave the field out.
 */
class ProfileRoundTripTest {
    @TempDir
    Path dir;

    private static final CpuProfile PROFILE = new CpuProfile("webflux.crud.collapsed", "async", 1520, 3, List.of(
            new CpuProfile.CategoryShare("server-io", 612, 0.403, 31.2), new CpuProfile.CategoryShare("json", 304, 0.2, 15.5),
            new CpuProfile.CategoryShare("other", 604, 0.397, 30.9)));

    private static RunRecord run() {
        RunRecord flows = FlowRuns.record(null, "mvc", "webflux", List.of(), List.of());
        List<Result> results = new ArrayList<>(flows.results());
        results.set(1, results.get(1).withProfile(PROFILE));
        results.add(FlowRuns.result("mvc-vt", 0, 0).withProfile(new CpuProfile("mvc-vt.crud.collapsed", "jfr", 10, 0,
                List.of(new CpuProfile.CategoryShare("app", 10, 1.0, null)))));
        return new RunRecord(flows.header(), null, flows.experiment(), results, null, flows.paired());
    }

    @Test
    void aProfileIsReadBackAsItWasWritten() throws IOException {
        RunRecord run = run();
        Path file = dir.resolve("results.json");
        Json.MAPPER.writeValue(file.toFile(), run);
        RunRecord back = RunRecord.read(file);
        assertEquals(run, back);
        assertEquals(PROFILE, back.results().get(1).telemetry().profile());
        assertNull(back.results().get(0).telemetry().profile());
        assertEquals(31.2, back.results().get(1).telemetry().profile().categories().get(0).usPerRequest());
    }

    @Test
    void itsFieldsHaveTheNamesTheSchemaGivesThem() {
        JsonNode tree = Json.MAPPER.valueToTree(run());
        assertEquals(18, tree.path("schema").asInt());
        assertFalse(tree.path("results").get(0).has("profile"), "no profile, no field");
        JsonNode profile = tree.path("results").get(1).path("profile");
        assertEquals(List.of("collapsed", "profiler", "samples", "truncated", "categories"), names(profile));
        assertEquals("{\"category\":\"server-io\",\"samples\":612,\"share\":0.403,\"us_per_request\":31.2}", profile.path("categories").get(0).toString());
        assertEquals(1520, profile.path("samples").asLong());
        assertEquals("{\"category\":\"app\",\"samples\":10,\"share\":1.0}", tree.path("results").get(2).path("profile").path("categories").get(0).toString(),
                "a result without a CPU figure has no µs per request");
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
