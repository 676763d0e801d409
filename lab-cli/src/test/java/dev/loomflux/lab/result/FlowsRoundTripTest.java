package dev.loomflux.lab.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.verdict.Comparisons;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run of flows in results.json (schema 13): each result's flows and steps, the blocks' figures per flow and step, the
 * comparisons per part and the rows left in each target's copy of table item, written by the lab's mapper under the names
 * docs/results-schema.md gives them and read back whole.
 */
class FlowsRoundTripTest {
    @TempDir
    Path dir;

    private static RunRecord run() {
        List<BlockRecord> blocks = FlowRuns.blocks("mvc", "webflux", 20, "read", 1.2, 7);
        return FlowRuns.record(null, "mvc", "webflux", blocks, Comparisons.of(blocks, List.of("mvc", "webflux")));
    }

    @Test
    void aRunOfFlowsIsReadBackAsItWasWritten() throws IOException {
        RunRecord run = run();
        Path file = dir.resolve("results.json");
        Json.MAPPER.writeValue(file.toFile(), run);
        assertEquals(run, RunRecord.read(file));
    }

    @Test
    void itsFieldsHaveTheNamesTheSchemaGivesThem() throws IOException {
        RunRecord run = run();
        JsonNode tree = Json.MAPPER.valueToTree(run);
        assertEquals(18, tree.path("schema").asInt());
        JsonNode result = tree.path("results").get(1);
        assertEquals("{\"total\":3,\"connect\":0,\"timeout\":0,\"4xx\":0,\"5xx\":0,\"other\":0,\"unexpected\":0,\"missing\":3}", result.path("errors").toString(),
                "the result's errors count its steps' own failures");
        assertEquals("{\"at_reset\":10000,\"after\":10009}", result.path("data_rows").toString());
        JsonNode flow = result.path("flows").get(0);
        assertEquals(List.of("flow", "completed", "failed", "throughput_rps", "in_flight", "latency_ms", "hlog", "steps"), names(flow));
        assertEquals("webflux.crud.crud.hlog", flow.path("hlog").asText());
        JsonNode create = flow.path("steps").get(0);
        assertEquals(List.of("step", "request", "requests", "responses", "throughput_rps", "latency_ms", "errors", "missing_cause", "hlog"), names(create));
        assertEquals("step create: no $.id in the response", create.path("missing_cause").asText());
        assertEquals("webflux.crud.crud.create.hlog", create.path("hlog").asText());
        assertEquals(List.of("mean", "p50", "p90", "p95", "p99", "p999", "max"), names(create.path("latency_ms")));
        assertFalse(flow.path("steps").get(1).has("missing_cause"), "a step that lacked nothing");

        JsonNode block = tree.path("blocks").get(0).path("flows").get(0);
        assertEquals(List.of("flow", "completed", "failed", "rps", "p50", "p99", "mean_ms", "steps"), names(block));
        assertEquals(List.of("step", "request", "responses", "failures", "rps", "p50", "p99"), names(block.path("steps").get(0)));

        JsonNode comparison = tree.path("comparisons").get(4);
        assertEquals(List.of("scenario", "flow", "step", "request", "metric", "a", "b", "ratio", "ci", "rounds", "outcome"),
                names(comparison).stream().filter(n -> !n.equals("rounds_to_settle") && !n.equals("note")).toList());
        assertEquals("create", comparison.path("step").asText());
        assertEquals("POST /items", comparison.path("request").asText());
    }

    /** A scenario that is no flow keeps the fields it had: none of a flow's. */
    @Test
    void aRequestScenarioHasNoneOfAFlowsFields() {
        Result.ErrorCounts e = new Result.ErrorCounts(1, 1, 0, 0, 0, 0);
        assertEquals("{\"total\":1,\"connect\":1,\"timeout\":0,\"4xx\":0,\"5xx\":0,\"other\":0}", Json.tree(e).toString());
        PairComparison c = new PairComparison("json", null, ScenarioPart.WHOLE, "throughput", "mvc", "webflux", new PairComparison.RatioEstimate(1.1, List.of(1.05, 1.15), 20),
                new PairComparison.Judgement(PairComparison.A, null, null), null);
        assertEquals(List.of("scenario", "metric", "a", "b", "ratio", "ci", "rounds", "outcome"), names(Json.tree(c)));
        assertEquals("json", c.where());
        assertTrue(c.wholeScenario());
        assertNull(Results.result("{'target': 'mvc', 'scenario': 'json', 'status': 'ok', 'throughput_rps': 10.0}").load().flows());
    }

    /** A sequential run's stops, and its comparisons' level and look, are written under the schema's names and read back. */
    @Test
    void whereTheRoundsStoppedIsReadBackAsItWasWritten() throws IOException {
        RunRecord flows = run();
        PairComparison c = new PairComparison("json", null, ScenarioPart.WHOLE, "throughput", "mvc", "webflux", new PairComparison.RatioEstimate(1.3, List.of(1.1, 1.5), 15),
                new PairComparison.Judgement(PairComparison.A, null, null), null)
                .sequential(0.0012, 15);
        RoundsStop stop = new RoundsStop("json", null, 15, 45, "every comparison has an outcome", 0.0012,
                List.of(new RoundsStop.Look(10, 1.1e-6, 4), new RoundsStop.Look(15, 0.0012, 0)), 101.5);
        RunRecord run = new RunRecord(flows.header(), flows.environment(), flows.experiment(), flows.results(), null,
                new RunRecord.PairedRounds(flows.paired().blocks(), List.of(c), List.of(stop)));
        JsonNode tree = Json.MAPPER.valueToTree(run);
        assertEquals(List.of("scenario", "rounds", "cap", "reason", "level", "looks", "seconds"), names(tree.path("stops").get(0)));
        assertEquals("{\"round\":10,\"level\":1.1E-6,\"open\":4}", tree.path("stops").get(0).path("looks").get(0).toString());
        assertEquals(List.of("scenario", "metric", "a", "b", "ratio", "ci", "rounds", "outcome", "level", "reached_at"), names(tree.path("comparisons").get(0)));
        Path file = dir.resolve("results.json");
        Json.MAPPER.writeValue(file.toFile(), run);
        assertEquals(run, RunRecord.read(file));
    }

    /** The hardware (schema 18) is written under the schema's names and read back; a file without it reads as unknown hardware. */
    @Test
    void theHardwareIsReadBackAsItWasWritten() throws IOException {
        RunRecord flows = run();
        Hardware hardware = new Hardware("GenuineIntel", "6", "207", "2", "0x1", "Intel(R) Xeon(R) Processor",
                List.of(new Hardware.Cache(1, "Data", "48K"), new Hardware.Cache(2, "Unified", "2048K")), "kvm", "6.18.44", "86d9ce9c09e486e0");
        Environment environment = new Environment("Linux 6.18.44 amd64", 2, "Intel(R) Xeon(R) Processor", 24000, null, null, null, Map.of(), null, null,
                hardware);
        RunRecord run = FlowRuns.record(environment, "mvc", "webflux", flows.paired().blocks(), flows.paired().comparisons());
        JsonNode written = Json.MAPPER.valueToTree(run).path("environment").path("hardware");
        assertEquals(List.of("vendor", "family", "model", "stepping", "microcode", "model_name", "caches", "hypervisor", "kernel", "flags_hash"), names(written));
        assertEquals("{\"level\":2,\"type\":\"Unified\",\"size\":\"2048K\"}", written.path("caches").get(1).toString());
        Path file = dir.resolve("results.json");
        Json.MAPPER.writeValue(file.toFile(), run);
        assertEquals(run, RunRecord.read(file));
        assertEquals(hardware, RunRecord.read(file).environment().hardware());
        JsonNode old = Json.MAPPER.readTree(file.toFile());
        ((ObjectNode) old.path("environment")).remove("hardware");
        Json.MAPPER.writeValue(file.toFile(), old);
        assertNull(RunRecord.read(file).environment().hardware(), "a file before schema 18");
    }

    /** A result's part is a result of its own for the metrics: a flow's iterations, a step's requests; none where it has no such part. */
    @Test
    void aPartOfAResultReadsAsAResult() {
        Result r = FlowRuns.result("mvc", 12, 3);
        List<ScenarioPart> parts = ScenarioPart.ofResults(List.of(r));
        assertEquals(List.of("crud", "crud/create", "crud/read", "crud/update", "crud/delete"), parts.stream().map(p -> p.where("crud")).toList());
        assertEquals(1400.0, Metric.THROUGHPUT.read(r.part(parts.get(0))));
        assertEquals(14.3, Metric.P50.read(r.part(parts.get(0))));
        Result create = r.part(parts.get(1));
        assertEquals(4.0, Metric.P50.read(create));
        assertEquals(3.0, Metric.ERRORS.read(create));
        assertNull(r.part(new ScenarioPart("crud", "nope", null)));
        assertEquals(r, r.part(ScenarioPart.WHOLE));
        assertEquals("POST /items", parts.get(1).subject());
        assertEquals("crud flow", parts.get(0).subject());
        // A mix: its requests together, then each flow and its steps.
        Map<String, Map<String, String>> flows = new LinkedHashMap<>();
        flows.put("browse", Map.of("list", "GET /items"));
        flows.put("buy", Map.of("pay", "POST /pay"));
        List<ScenarioPart> mix = ScenarioPart.of(flows);
        assertEquals(List.of("shop", "shop/browse", "shop/browse/list", "shop/buy", "shop/buy/pay"), mix.stream().map(p -> p.where("shop")).toList());
        assertEquals(List.of(true, false, false, false, false), mix.stream().map(p -> p.standsForScenario("shop")).toList());
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** The file a run writes, read by the same records: what every reader of results.json gets. */
    @Test
    void theFileHoldsTheFlows() throws IOException {
        RunRecord run = run();
        Path file = dir.resolve("results.json");
        Json.MAPPER.writeValue(file.toFile(), run);
        String text = Files.readString(file);
        assertTrue(text.contains("\"missing_cause\" : \"step create: no $.id in the response\""), text);
        RunRecord back = RunRecord.read(file);
        assertEquals(2, back.results().get(0).load().flows().get(0).steps().stream().filter(s -> s.step().startsWith("u") || s.step().startsWith("d")).count());
        assertEquals(12, back.results().get(0).load().dataRows().growth());
    }
}
