package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.result.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A JMeter plan of the user's own (plans/two-samplers.jmx: two samplers that take the target's host and port from the
 * JMeter properties the lab sets, in a thread group that takes its users and length from the lab) run against two
 * built-in targets, one after the other, its samples read as the lab's own plans' are (docs/scale-out.md, "Your own
 * JMeter plan").
 */
@Tag("slow") // ./check slow, in CI after ./check
class OwnPlanIT {
    private static final int USERS = 6;

    @Test
    void aPlanOfYourOwnRunsAgainstEachTargetAndBothItsSamplersAnswer() throws Exception {
        Path plan = Path.of(OwnPlanIT.class.getResource("/plans/two-samplers.jmx").toURI());
        LabCli run = LabCli.of("run", "--aot-cache", "--driver", "jmeter", "--plan", plan.toString(), "--targets", "mvc,webflux",
                "--users", Integer.toString(USERS), "--duration", "4s", "--warmup", "4s", "--cooldown", "0s", "--no-pin");
        assertEquals(0, run.exitCode(), run.toString());
        Path dir = Results.file(run.out()).getParent();
        JsonNode root = Results.tree(dir.resolve("results.json"));
        assertEquals("jmeter", root.path("experiment").path("driver").asText());
        assertEquals("sequential", root.path("experiment").path("design").path("kind").asText(), "a plan of your own runs in the sequential design");
        assertEquals("plan-two-samplers", root.path("experiment").path("name").asText());
        String log = Files.readString(dir.resolve("run.log"));
        JsonNode results = root.path("results");
        assertEquals(2, results.size(), root.toString());
        assertEquals(List.of("mvc", "webflux"), List.of(results.get(0).path("target").asText(), results.get(1).path("target").asText()));
        for (JsonNode r : results) {
            String target = r.path("target").asText();
            assertEquals("ok", r.path("status").asText(), r.toString());
            assertEquals("plan-two-samplers", r.path("scenario").asText());
            assertEquals(0, r.path("errors").path("total").asLong(), r.toString());
            assertEquals(r.path("requests").asLong(), r.path("responses").asLong(), r.toString());
            // Little's law: every user always in a request of one sampler or the other, but for JMeter's own time between two.
            assertEquals(USERS, r.path("in_flight").asDouble(), USERS * 0.1, "Little's law: " + r);
            // Each sampler's part of the measured window, in the run's log: both answered, every request, and together they are the result.
            long requests = 0;
            for (String sampler : List.of("cpu", "json")) {
                Matcher m = Pattern.compile(Pattern.quote(target + " plan-two-samplers: sampler '" + sampler + "': ") + "(\\d+) requests, (\\d+) responses, (\\d+) failed")
                        .matcher(log);
                assertTrue(m.find(), target + " " + sampler + " in\n" + log);
                assertTrue(Long.parseLong(m.group(2)) > 20, m.group());
                assertEquals(m.group(1), m.group(2), m.group());
                assertEquals("0", m.group(3), m.group());
                requests += Long.parseLong(m.group(1));
            }
            assertEquals(r.path("requests").asLong(), requests, "the result's requests are the two samplers' " + r);
            // The plan as the lab ran it: the user's, with the lab's Connection: close extractor.
            String asRun = Files.readString(dir.resolve(r.path("plan").asText()));
            assertTrue(asRun.contains("${__P(host)}") && asRun.contains("RegexExtractor"), asRun);
        }
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(), "no JMeter left");
    }
}
