package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Real runs' results.json read by the typed model and written back: every field survives, so no
 * reader of the model sees less than the file holds. The files are from this machine's runs
 * (single, repeated, with JFR, steady state and phases; a sweep; a paired run with blocks and comparisons; a paired capacity ladder), schema 1, which wrote null where
 * schema 2 leaves the field out, and schema 2. One section is dropped on purpose: the "warmup" of results
 * from before the steady-state check, which steady_state replaced and nothing reads.
 */
class RoundTripTest {
    private static final Path FIXTURES = Path.of("src/test/resources/fixtures");

    @Test
    void everyFieldOfEveryFixtureSurvivesReadAndWrite() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(FIXTURES)) {
            files = s.filter(p -> p.getFileName().toString().equals("results.json")).sorted().toList();
        }
        assertEquals(12, files.size(), files.toString());
        int results = 0;
        for (Path file : files) {
            // Schema 11 names the sweep's RSS growth per 1,000 users so (keys and the winners' metric); earlier files said connections.
            JsonNode original = withoutNulls(Json.MAPPER.readTree(Files.readString(file)
                    .replace("\"rss_mb_per_1000_connections\"", "\"rss_mb_per_1000_users\"")));
            original.path("results").forEach(r -> ((ObjectNode) r).remove("warmup"));
            // Schema 9 writes the driver's plan file as "plan"; earlier files called it hyperfoil_yaml.
            original.path("results").forEach(r -> {
                if (r.has("hyperfoil_yaml")) {
                    ((ObjectNode) r).set("plan", ((ObjectNode) r).remove("hyperfoil_yaml"));
                }
            });
            // Schema 12 names one thing one word: a paired run's sets (schema 11 wrote them as repeat), a block's in_flight
            // (little_users), the rate's max_in_flight (max_users).
            renamed(original.path("experiment").path("profile"), "max_users", "max_in_flight");
            original.path("blocks").forEach(b -> renamed(b, "little_users", "in_flight"));
            if (original.path("experiment").path("design").path("kind").asText().equals("paired")) {
                renamed(original.path("experiment"), "repeat", "sets");
                original.path("results").forEach(r -> renamed(r, "repeat", "set"));
            }
            RunRecord run = RunRecord.read(file);
            // target_config is the target's own JSON, kept as it came, nulls included.
            JsonNode written = withoutNulls(Json.MAPPER.valueToTree(run));
            List<String> differences = new ArrayList<>();
            diff("", original, written, differences);
            assertTrue(differences.isEmpty(), file + ": " + String.join("\n", differences));
            assertTrue(run.equals(Json.MAPPER.treeToValue(Json.MAPPER.valueToTree(run), RunRecord.class)), file + " read again");
            results += run.results().size();
        }
        assertEquals(96, results, "the fixtures' results, all of them read");
    }

    @Test
    void aTypedReadGivesTheFiguresOfTheFile() throws IOException {
        RunRecord run = RunRecord.read(FIXTURES.resolve("report-3-targets/results.json"));
        JsonNode tree = Json.MAPPER.readTree(FIXTURES.resolve("report-3-targets/results.json").toFile());
        Result first = run.results().get(0);
        JsonNode r = tree.path("results").get(0);
        assertEquals(r.path("throughput_rps").asDouble(), first.load().throughputRps());
        assertEquals(r.path("latency_ms").path("p99").asDouble(), first.load().latencyMs().p99());
        assertEquals(r.path("series").size(), first.telemetry().series().size());
        assertEquals(r.path("steady_state").path("drift").path("rps_change_pct").asDouble(), first.checks().steadyState().drift().rpsChangePct());
        assertEquals(r.path("phases").get(0).path("target").path("threads").path("max").asLong(),
                first.telemetry().phases().get(0).target().threads().max().longValue());
        assertEquals(tree.path("environment").path("pinning").path("driver").asText(), run.environment().pinning().driver());
        assertFalse(run.results().stream().anyMatch(x -> x.target() == null || x.outcome().status() == null));
    }

    private static void renamed(JsonNode node, String old, String now) {
        if (node instanceof ObjectNode o && o.has(old)) {
            o.set(now, o.remove(old));
        }
    }

    /** Where {@code b} differs from {@code a}, by path. */
    private static void diff(String at, JsonNode a, JsonNode b, List<String> out) {
        if (a.isObject() && b.isObject()) {
            a.fieldNames().forEachRemaining(k -> {
                if (!b.has(k)) {
                    out.add(at + "/" + k + " lost");
                } else {
                    diff(at + "/" + k, a.get(k), b.get(k), out);
                }
            });
            b.fieldNames().forEachRemaining(k -> {
                if (!a.has(k)) {
                    out.add(at + "/" + k + " added");
                }
            });
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                diff(at + "[" + i + "]", a.get(i), b.get(i), out);
            }
        } else if (a.isNumber() && b.isNumber() ? a.asDouble() != b.asDouble() : !a.equals(b)) {
            out.add(at + ": " + a + " became " + b);
        }
    }

    private static JsonNode withoutNulls(JsonNode node) {
        if (node instanceof ObjectNode o) {
            List<String> nulls = new ArrayList<>();
            o.fields().forEachRemaining(e -> {
                if (e.getValue().isNull()) {
                    nulls.add(e.getKey());
                } else {
                    withoutNulls(e.getValue());
                }
            });
            o.remove(nulls);
        } else if (node instanceof ArrayNode a) {
            a.forEach(RoundTripTest::withoutNulls);
        }
        return node;
    }
}
