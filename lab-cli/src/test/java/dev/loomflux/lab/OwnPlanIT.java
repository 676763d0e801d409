package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
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
        Path dir = run.dir();
        RunRecord root = Results.record(dir);
        assertEquals("jmeter", root.experiment().driver());
        assertEquals("sequential", root.experiment().design().kind(), "a plan of your own runs in the sequential design");
        assertEquals("plan-two-samplers", root.experiment().name());
        String log = Files.readString(dir.resolve("run.log"));
        List<Result> results = root.results();
        assertEquals(2, results.size(), root.toString());
        assertEquals(List.of("mvc", "webflux"), List.of(results.get(0).target(), results.get(1).target()));
        for (Result r : results) {
            String target = r.target();
            assertEquals("ok", r.outcome().status(), r.toString());
            assertEquals("plan-two-samplers", r.scenario());
            assertEquals(0, r.load().errors().total(), r.toString());
            assertEquals(r.load().requests(), r.load().responses(), r.toString());
            // Little's law: every user always in a request of one sampler or the other, but for JMeter's own time between two.
            assertEquals(USERS, r.load().inFlight(), USERS * 0.1, "Little's law: " + r);
            // Each sampler's part of the measured window, in the run's log: both answered, every request, and together they are the result.
            // (Only run.log holds a plan's samplers: results.json does not, so this reads the log's lines; see SamplerCounts.)
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
            assertEquals(r.load().requests(), requests, "the result's requests are the two samplers' " + r);
            // The plan as the lab ran it: the user's, with the lab's Connection: close extractor.
            String asRun = Files.readString(dir.resolve(r.files().plan()));
            assertTrue(asRun.contains("${__P(host)}") && asRun.contains("RegexExtractor"), asRun);
        }
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(), "no JMeter left");
    }
}
