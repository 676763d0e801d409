package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The built-in crud flow in paired rounds on mvc and webflux with PostgreSQL (issue 46): the comparisons cover the flow and
 * each of its steps, the results carry each flow's and step's figures with a log each, the report shows them, and each
 * target's copy of table item ends with its seeded rows (every iteration deletes the item it created).
 */
@Tag("slow") // ./check slow, in CI after ./check
class FlowRunIT {
    private static final List<String> STEPS = List.of("create", "read", "update", "delete");

    /**
     * No lead-in rounds: the lab resets each copy after the compile stages, so every write the copy took after its reset was
     * sent in a measured round.
     */
    @Test
    void crudInRoundsIsComparedPerFlowAndStepAndEveryWriteIsCounted() throws IOException {
        LabCli run = LabCli.of("run", "--aot-cache", "--targets", "mvc,webflux", "--scenario", "crud", "--users", "8", "--rounds", "6", "--block", "1s",
                "--lead-in-rounds", "0", "--sets", "1", "--warmup", "10s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        Path file = Results.file(run.out());
        JsonNode root = Results.tree(file);

        Map<String, Set<String>> metrics = new HashMap<>();
        for (JsonNode c : root.path("comparisons")) {
            String where = c.path("scenario").asText() + (c.has("step") ? "/" + c.path("step").asText() : "");
            metrics.computeIfAbsent(where, k -> new TreeSet<>()).add(c.path("metric").asText());
            assertEquals("crud", c.path("flow").asText(), c.toString());
            assertEquals(Set.of("mvc", "webflux"), Set.of(c.path("a").asText(), c.path("b").asText()), c.toString());
        }
        assertEquals(Set.of("throughput", "p50", "p99", "cpu-per-request"), metrics.get("crud"), "the flow: " + metrics);
        for (String step : STEPS) {
            assertEquals(Set.of("throughput", "p50", "p99"), metrics.get("crud/" + step), "step " + step + ": " + metrics);
        }
        assertTrue(run.out().contains("paired crud/create: "), run.out());
        assertTrue(run.out().contains(" POST /items "), "a step is named by its request: " + run.out());

        assertEquals(12, root.path("blocks").size(), "6 rounds x 2 targets, none of them lead-in");
        for (JsonNode b : root.path("blocks")) {
            assertEquals(STEPS, names(b.path("flows").get(0).path("steps"), "step"), b.toString());
        }

        String report = Files.readString(file.resolveSibling("report.md"));
        assertTrue(report.contains("| crud/create (POST /items): mvc / webflux |"), "the matrix has the steps: " + report);
        assertTrue(report.contains("**Flow crud: whole iterations"), report);
        assertTrue(report.contains("- Table item: each target wrote into its own copy, 10,000 rows when reset before its load"), report);

        for (JsonNode r : root.path("results")) {
            assertEquals("ok", r.path("status").asText(), r.toString());
            JsonNode crud = r.path("flows").get(0);
            assertEquals(STEPS, names(crud.path("steps"), "step"), r.toString());
            assertTrue(Files.isRegularFile(file.resolveSibling(crud.path("hlog").asText())), crud.toString());
            long failures = 0;
            Map<String, Long> succeeded = new HashMap<>();
            for (JsonNode s : crud.path("steps")) {
                assertTrue(Files.isRegularFile(file.resolveSibling(s.path("hlog").asText())), s.toString());
                JsonNode e = s.path("errors");
                // A write whose answer never came may or may not be in the table: the exact count needs every one answered.
                assertEquals(0, e.path("connect").asLong() + e.path("timeout").asLong() + e.path("other").asLong(), s.toString());
                failures += e.path("total").asLong();
                // A create answered 201 is a row, its id read or not; a 4xx, a 5xx or another status wrote nothing.
                succeeded.put(s.path("step").asText(), s.path("responses").asLong() - e.path("4xx").asLong() - e.path("5xx").asLong()
                        - e.path("unexpected").asLong());
            }
            assertEquals(failures, r.path("errors").path("total").asLong(), "the result's errors are its steps' failures: " + r.path("errors"));
            assertTrue(succeeded.get("create") > 100, succeeded.toString());
            JsonNode rows = r.path("data_rows");
            assertEquals(10_000, rows.path("at_reset").asLong(), r.toString());
            // The blocks count a step by when it was sent, so an iteration cut by a block's edge has its create in one block and
            // its delete in the next round's: the measured counts differ by the iterations in flight at the edges, at most one
            // per user at each of the 6 blocks' two edges. The exact count over writes is WritesIT's; here every iteration
            // deletes what it created, so the copy ends with its seeded rows and, at most, one row per user whose iteration
            // the load's end cut after its create.
            assertTrue(Math.abs(succeeded.get("create") - succeeded.get("delete")) <= 8 * 2 * 6, r.path("target").asText() + ": " + succeeded);
            assertTrue(rows.path("after").asLong() >= 10_000 && rows.path("after").asLong() <= 10_000 + 8,
                    r.path("target").asText() + ": the rows in its copy are the seeded ones, but for iterations the load's end cut: "
                            + succeeded + ", " + rows);
        }
    }

    private static List<String> names(JsonNode list, String field) {
        return java.util.stream.StreamSupport.stream(list.spliterator(), false).map(n -> n.path(field).asText()).toList();
    }

    /**
     * The same target under two names on the crud flow, two sets of JVMs each, the default lead-in: no winner on the flow or
     * on any step, on any metric, though each name writes into a copy of its own. With 15 s compile stages (--warmup 30s) a JVM
     * still compiling through the rounds once gave the other name a winner; the lab now reads every block's JIT time and leaves
     * such a JVM's target out of the verdicts (docs/statistics.md, "A JIT still compiling in the rounds"), and 30 s stages let
     * most JVMs finish first.
     */
    @Test
    void theSameTargetTwiceOnCrudNeverGetsAWinner() throws IOException {
        LabCli run = LabCli.of("run", "--aot-cache", "--targets", "mvc,mvc2", "--define", "mvc2=mvc", "--scenario", "crud", "--users", "8",
                "--rounds", "8", "--block", "1s", "--sets", "2", "--warmup", "60s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        JsonNode root = Results.tree(run.out());
        for (JsonNode b : root.path("blocks")) {
            assertTrue(b.path("jit_ms").asDouble(-1) >= 0, "every block has its JVM's JIT time: " + b);
        }
        JsonNode comparisons = root.path("comparisons");
        // the flow on four metrics, each of its four steps on three
        assertEquals(4 + 4 * 3, comparisons.size(), comparisons.toString());
        for (JsonNode c : comparisons) {
            String outcome = c.path("outcome").asText();
            assertTrue(outcome.equals("equivalent") || outcome.equals("undecided"), "A/A gave a winner: " + c);
        }
    }
}
