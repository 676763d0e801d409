package dev.loomflux.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.drivers.Drivers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flows and mixes read from experiment YAML, and every malformed one refused in one line naming the file, the flow and the step. */
class FlowReaderTest {
    private static final String CRUD = """
            - flow: crud
              data: {price: {uniform: [100, 10000]}, n: unique}
              steps:
                - {name: create, method: POST, path: /items, body: '{"name": "item-${n}", "priceCents": ${price}}', expect: 201, extract: {id: $.id}}
                - {name: read, path: '/items/${id}', expect: 200}
                - {name: update, method: put, path: '/items/${id}', body: '{"name": "x-${n}", "priceCents": 1}', expect: 200, think: 50ms}
                - {name: delete, method: DELETE, path: '/items/${id}', expect: 204}
            """;

    @TempDir
    Path dir;

    private Experiment read(String scenarios) throws IOException {
        return read(scenarios, "{fixed: {users: 2, duration: 5s}}");
    }

    private Experiment read(String scenarios, String profile) throws IOException {
        Path file = dir.resolve("x.yaml");
        Files.writeString(file, "targets: [mvc]\nprofile: " + profile + "\nscenarios:\n" + scenarios.indent(2));
        return ExperimentReader.read(file, Drivers.ALL);
    }

    /** The message, with the file's path shortened to x.yaml. */
    private String error(String scenarios) {
        UsageException e = assertThrows(UsageException.class, () -> read(scenarios));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage().replace(dir.resolve("x.yaml").toString(), "x.yaml");
    }

    @Test
    void aFlowReadsWithItsStepsDataAndExtraction() throws IOException {
        Scenario s = read(CRUD).scenarios().get(0);
        assertTrue(s.isFlow());
        assertEquals("crud", s.name());
        assertEquals("/items", s.path());
        Mix mix = s.mix();
        assertEquals(FlowReader.DEFAULT_SEED, mix.seed());
        Flow flow = mix.flows().get(0);
        assertEquals(List.of("create", "read", "update", "delete"), flow.steps().stream().map(FlowStep::name).toList());
        assertEquals(Map.of("price", new FlowData.Uniform(100, 10000), "n", new FlowData.Unique()), flow.data());
        FlowStep create = flow.steps().get(0);
        assertEquals(FlowStep.Method.POST, create.method());
        assertEquals(new FlowStep.Expect(201, 201), create.expect());
        assertEquals(List.of(new FlowStep.Extract("id", FlowStep.Extract.Source.JSON, "$.id")), create.extract());
        assertEquals("{\"name\": \"item-${n}\", \"priceCents\": ${price}}", create.body());
        assertEquals(FlowStep.Method.PUT, flow.steps().get(2).method(), "methods in any case");
        assertEquals(Map.of("Content-Type", "application/json"), create.headers(), "a body goes as JSON unless told");
        assertEquals(Map.of(), flow.steps().get(1).headers());
        assertEquals(new Think(Duration.ofMillis(50), Duration.ofMillis(50)), flow.steps().get(2).think());
        assertEquals(FlowStep.Expect.SUCCESS, read("- flow: f\n  steps: [{name: a, path: /}]").scenarios().get(0).mix().first().expect(), "2xx unless told");
    }

    @Test
    void theBuiltInCrudIsThePresetFlowCrud() throws IOException {
        Mix builtIn = read("- crud").scenarios().get(0).mix();
        Experiment preset = ExperimentReader.read(Path.of(System.getProperty("loomflux.home"), "experiments/flow-crud.yaml"), Drivers.ALL);
        assertEquals(builtIn, preset.scenarios().get(0).mix());
        assertTrue(preset.design().paired(), "verdicts from one run");
        assertTrue(read("- crud").scenarios().get(0).needsDatabase(), "the items API reads the database");
    }

    @Test
    void aMixWeighsItsFlows() throws IOException {
        Mix mix = read("""
                - mix: shop
                  seed: 42
                  flows:
                    - {flow: browse, weight: 80, steps: [{name: list, path: /items}]}
                    - {flow: buy, weight: 20, steps: [{name: add, method: POST, path: /cart, headers: {X-Trace: 'a-${n}'}, expect: 2xx}], data: {n: unique}}
                """).scenarios().get(0).mix();
        assertEquals("shop", mix.name());
        assertEquals(42, mix.seed());
        assertEquals(List.of(80, 20), mix.flows().stream().map(Flow::weight).toList());
        assertEquals(Map.of("X-Trace", "a-${n}"), mix.flows().get(1).steps().get(0).headers());
    }

    @Test
    void aBodyFileAndHeaderExtractionAndCsvRows() throws IOException {
        Files.writeString(dir.resolve("item.json"), "{\"name\": \"${lastName}\"}");
        Files.writeString(dir.resolve("owners.csv"), "lastName,city\nDavis,Madison\n\"Black, Jr\",Sun Prairie\n");
        Flow f = read("""
                - flow: owners
                  data: {csv: {file: owners.csv, per: user}}
                  steps:
                    - {name: add, method: POST, path: /owners, body: {file: item.json}, extract: {where: {header: Location}}}
                    - {name: search, path: '/owners?lastName=${lastName}&city=${city}'}
                """).scenarios().get(0).mix().flows().get(0);
        assertEquals("{\"name\": \"${lastName}\"}", f.steps().get(0).body());
        assertEquals("item.json", f.steps().get(0).bodyFile());
        assertEquals(List.of(new FlowStep.Extract("where", FlowStep.Extract.Source.HEADER, "Location")), f.steps().get(0).extract());
        assertEquals(FlowCsv.Per.USER, f.csv().per());
        assertEquals(List.of("lastName", "city"), f.csv().columns());
        assertEquals(List.of(List.of("Davis", "Madison"), List.of("Black, Jr", "Sun Prairie")), f.csv().rows());
        assertEquals(Map.of("lastName", new FlowData.Column(0), "city", new FlowData.Column(1)), f.data());
        assertNull(read(CRUD).scenarios().get(0).mix().flows().get(0).csv());
    }

    @Test
    void anUnknownMethod() {
        assertEquals("x.yaml: scenarios[0].steps[0].method: flow f, step a: unknown method 'FETCH' (allowed: GET, POST, PUT, PATCH, DELETE)",
                error("- flow: f\n  steps: [{name: a, method: FETCH, path: /}]"));
    }

    @Test
    void aVariableNoEarlierStepExtractsAndNoDataDefines() {
        assertEquals("x.yaml: scenarios[0].steps[1].path: flow crud, step read: path uses ${idd}, which no earlier step extracts and no data defines"
                + " (known here: price, n, id)", error(CRUD.replace("/items/${id}', expect: 200}", "/items/${idd}', expect: 200}")));
        // Extracted by a later step is not enough: the value is not there yet.
        assertEquals("x.yaml: scenarios[0].steps[0].body: flow f, step a: body uses ${id}, which no earlier step extracts and no data defines",
                error("- flow: f\n  steps: [{name: a, method: POST, path: /, body: '${id}'}, {name: b, path: /, extract: {id: $.id}}]"));
        assertEquals("x.yaml: scenarios[0].steps[0].headers.Authorization: flow f, step a: header Authorization uses ${token}, which no earlier step"
                + " extracts and no data defines", error("- flow: f\n  steps: [{name: a, path: /, headers: {Authorization: 'Bearer ${token}'}}]"));
        assertEquals("x.yaml: scenarios[0].steps[0].path: flow f, step a: path: '${__Random(1,9)}' is not a variable: write ${name}, a letter then letters,"
                + " digits or '_'", error("- flow: f\n  steps: [{name: a, path: '/${__Random(1,9)}'}]"));
        assertEquals("x.yaml: scenarios[0].steps[0].path: flow f, step a: path: '${id' is not closed: write ${name}",
                error("- flow: f\n  steps: [{name: a, path: '/x/${id'}]"));
    }

    @Test
    void aMissingBodyFile() {
        String message = error("- flow: f\n  steps: [{name: a, method: POST, path: /, body: {file: nope.json}}]");
        assertEquals("x.yaml: scenarios[0].steps[0].body.file: flow f, step a: cannot read the body file " + dir.resolve("nope.json") + " (no such file)", message);
    }

    @Test
    void aBadJsonPath() {
        for (String path : List.of("$..id", "$.items[*].id", "id", "$", "$.a[?(@.b)]", "$['id']")) {
            assertEquals("x.yaml: scenarios[0].steps[0].extract.id: flow f, step a: extract id: '" + path + "' is not a JSON path both drivers read:"
                            + " $ then fields and indexes, e.g. $.id or $.items[0].id (no wildcards, filters or ..)",
                    error("- flow: f\n  steps: [{name: a, path: /, extract: {id: \"" + path + "\"}}]"), path);
        }
    }

    @Test
    void aBadWeight() {
        for (String weight : List.of("0", "-5", "80.5", "lots", "1000001")) {
            assertEquals("x.yaml: scenarios[0].flows[1].weight: mix m, flow b: weight must be a whole number in 1..1000000 (its share of the iterations),"
                            + " got '" + weight + "'",
                    error("- mix: m\n  flows:\n    - {flow: a, weight: 1, steps: [{name: x, path: /}]}\n    - {flow: b, weight: " + weight
                            + ", steps: [{name: y, path: /}]}"), weight);
        }
        assertEquals("x.yaml: scenarios[0].flows[1].weight: mix m, flow b: weight must be a whole number in 1..1000000 (its share of the iterations), got ''",
                error("- mix: m\n  flows:\n    - {flow: a, weight: 1, steps: [{name: x, path: /}]}\n    - {flow: b, steps: [{name: y, path: /}]}"));
        assertEquals("x.yaml: scenarios[0].weight: unknown key (allowed: data, flow, seed, steps)".length(),
                error("- flow: a\n  weight: 3\n  steps: [{name: x, path: /}]").length(), "a weight belongs to a mix's flows");
    }

    @Test
    void namesThatWouldMixUpStatistics() {
        assertEquals("x.yaml: scenarios[0].flows[1].steps[0].name: mix m: 'x' names step x of flow a already; every flow and step needs a name of its own"
                        + " (it names their statistics)",
                error("- mix: m\n  flows:\n    - {flow: a, weight: 1, steps: [{name: x, path: /}]}\n    - {flow: b, weight: 1, steps: [{name: x, path: /}]}"));
        assertEquals("x.yaml: scenarios[0].flows[1].flow: mix m: 'm' names the mix already; every flow and step needs a name of its own"
                        + " (it names their statistics)",
                error("- mix: m\n  flows:\n    - {flow: a, weight: 1, steps: [{name: x, path: /}]}\n    - {flow: m, weight: 1, steps: [{name: y, path: /}]}"),
                "results name a mix's flow after the mix: m/m would read as the mix");
        assertEquals("x.yaml: scenarios[0].steps[1].name: flow f: 'a' names another step already; every step needs a name of its own (it names the step's"
                + " statistics)", error("- flow: f\n  steps: [{name: a, path: /}, {name: a, path: /}]"));
        assertEquals("x.yaml: scenarios[1]: another scenario is named crud already; give each flow a name of its own (it names its results)",
                error("- crud\n" + CRUD));
        assertEquals("x.yaml: scenarios[1]: another scenario is named crud already; give each flow a name of its own (it names its results)",
                error(CRUD + "- crud\n"));
        assertEquals("x.yaml: scenarios[0].steps[0].name: flow f: expected the step's name (it names its statistics): letters, digits, '_' or '-' (at most 40)",
                error("- flow: f\n  steps: [{path: /}]"));
    }

    @Test
    void otherMistakesAreNamedToo() {
        assertEquals("x.yaml: scenarios[0].steps[0].body: flow f, step a: a GET sends no body", error("- flow: f\n  steps: [{name: a, path: /, body: x}]"));
        assertEquals("x.yaml: scenarios[0].steps[0].expect: flow f, step a: expect a status of 200..399 (e.g. 201) or a class (2xx, 3xx), not '404':"
                + " a 4xx or 5xx always counts as an error", error("- flow: f\n  steps: [{name: a, path: /, expect: 404}]"));
        assertEquals("x.yaml: scenarios[0].steps[0].extract.n: flow f, step a: extract n: n is a data variable or an earlier step's value already;"
                + " give the value another name", error("- flow: f\n  data: {n: unique}\n  steps: [{name: a, path: /, extract: {n: $.n}}]"));
        assertEquals("x.yaml: scenarios[0].steps[1].extract.id: flow f, step b: extract id: id is a data variable or an earlier step's value already;"
                + " give the value another name", error("- flow: f\n  steps: [{name: a, path: /, extract: {id: $.id}}, {name: b, path: '/${id}', extract: {id: $.id}}]"));
        assertEquals("x.yaml: scenarios[0].data.price: flow f: expected {uniform: [min, max]} or unique",
                error("- flow: f\n  data: {price: random}\n  steps: [{name: a, path: /}]"));
        assertEquals("x.yaml: scenarios[0].data.price.uniform: flow f: 9 > 1: give [min, max]",
                error("- flow: f\n  data: {price: {uniform: [9, 1]}}\n  steps: [{name: a, path: /}]"));
        assertEquals("x.yaml: scenarios[0].steps[0].path: flow f, step a: expected a path that starts with '/', has no spaces and at most 500 characters,"
                + " e.g. /items/${id}, got 'items'", error("- flow: f\n  steps: [{name: a, path: items}]"));
        assertTrue(error("- flow: f\n  data: {csv: {file: none.csv}}\n  steps: [{name: a, path: /}]")
                .startsWith("x.yaml: scenarios[0].data.csv.file: flow f: cannot read the CSV file " + dir.resolve("none.csv") + " (no such file)"));
    }

    @Test
    void aFlowRunsIterationsSoNotUnderLoopsOrBurst() {
        UsageException e = assertThrows(UsageException.class, () -> read(CRUD, "{loops: {users: 2, requests: 10}}"));
        assertEquals(dir.resolve("x.yaml") + ": profile: flow crud runs iterations of its steps, and loops counts requests per user: use fixed, stages or rate",
                e.getMessage());
        assertFalse(assertThrows(UsageException.class, () -> read("- crud", "{burst: {users: 2}}")).getMessage().isEmpty());
    }
}
