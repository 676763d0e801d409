package dev.loomflux.lab.driver.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loomflux.lab.driver.FlowMeasurement;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.StepMeasurement;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowData;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A mix of flows as JMeter 5.6.3 wrote its results (jmeter/flows.jtl: 100 consecutive rows of a run of {@link #SHOP} on
 * the stub, 2 users, with JmeterPlan's flow plan), read into the same figures per flow and per step as Hyperfoil's.
 * The file holds 18 whole crud iterations (a create, a read and a delete each, then the crud transaction's row), 4
 * lost iterations (a create without $.missing), 3 wrong ones (a create answered 201 where 200 is expected) and 7
 * gone ones (a read of an item that does not exist: 404), each failed iteration's step then its transaction's row,
 * unsuccessful and without a status.
 */
class FlowSamplesTest {
    private static final Map<String, String> JSON = Map.of("Content-Type", "application/json");
    private static final Mix SHOP = new Mix("shop", 3, List.of(
            new Flow("crud", 4, List.of(
                    new FlowStep("create", FlowStep.Method.POST, "/items", JSON, "{\"name\": \"item-${n}\"}", null, new FlowStep.Expect(201, 201),
                            List.of(new FlowStep.Extract("id", FlowStep.Extract.Source.JSON, "$.id")), new Think(Duration.ofMillis(20), Duration.ofMillis(20))),
                    new FlowStep("read", FlowStep.Method.GET, "/items/${id}", Map.of(), null, null, new FlowStep.Expect(200, 200), List.of(), Think.NONE),
                    new FlowStep("delete", FlowStep.Method.DELETE, "/items/${id}", Map.of(), null, null, new FlowStep.Expect(204, 204), List.of(), Think.NONE)),
                    Map.of("n", new FlowData.Unique()), null),
            new Flow("lost", 1, List.of(
                    new FlowStep("lost-create", FlowStep.Method.POST, "/items", JSON, "{}", null, new FlowStep.Expect(201, 201),
                            List.of(new FlowStep.Extract("x", FlowStep.Extract.Source.JSON, "$.missing")), Think.NONE),
                    new FlowStep("lost-read", FlowStep.Method.GET, "/items/${x}", Map.of(), null, null, new FlowStep.Expect(200, 200), List.of(), Think.NONE)),
                    Map.of(), null),
            new Flow("wrong", 1, List.of(
                    new FlowStep("wrong-create", FlowStep.Method.POST, "/items", JSON, "{}", null, new FlowStep.Expect(200, 200), List.of(), Think.NONE),
                    new FlowStep("wrong-read", FlowStep.Method.GET, "/items/1", Map.of(), null, null, FlowStep.Expect.SUCCESS, List.of(), Think.NONE)),
                    Map.of(), null),
            new Flow("gone", 1, List.of(
                    new FlowStep("gone-read", FlowStep.Method.GET, "/items/0", Map.of(), null, null, new FlowStep.Expect(200, 200), List.of(), Think.NONE)),
                    Map.of(), null)));
    private static final PhasePlan PLAN = PhasePlan.of(new LoadProfile.Fixed(2, Duration.ofSeconds(20), new Think(Duration.ofMillis(100), Duration.ofMillis(100))), 1);

    private static List<Jtl.Sample> rows() throws Exception {
        return Jtl.readAll(Path.of(FlowSamplesTest.class.getResource("/jmeter/flows.jtl").toURI()));
    }

    private static Measurement read(List<Jtl.Sample> rows, List<String> agents) {
        JmeterReading reading = new JmeterReading(PLAN, SHOP, s -> { }, null, 10_000, agents);
        long end = rows.stream().mapToLong(Jtl.Sample::endMs).max().orElseThrow();
        reading.add(rows, end);
        return reading.finish(end, null);
    }

    private static StepMeasurement step(FlowMeasurement f, String name) {
        return f.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void eachStepsRowsAreItsRequestsAndEachFlowsTransactionACompletedIteration() throws Exception {
        Measurement m = read(rows(), List.of());
        assertEquals(68, m.requests(), "the steps' 68 rows; the transactions' 32 are iterations, not requests");
        assertEquals(68, m.responses());
        assertEquals(7, m.errors().total(), "the 404s, and nothing else: " + m.errors());
        assertEquals(7, m.errors().status4xx());
        assertEquals(List.of("crud", "lost", "wrong", "gone"), m.flows().stream().map(FlowMeasurement::flow).toList());

        FlowMeasurement crud = m.flows().get(0);
        assertEquals(18, crud.completed());
        assertEquals(0, crud.failed());
        // The transactions' elapsed times, 20 ms of pause after each create in them: 592 ms over 18.
        assertEquals(32.89, crud.latency().getMean() / 1e6, 0.5);
        for (String s : List.of("create", "read", "delete")) {
            assertEquals(18, step(crud, s).requests(), s);
            assertEquals(18, step(crud, s).responses(), s);
            assertEquals(0, step(crud, s).failures(), s);
        }

        FlowMeasurement lost = m.flows().get(1);
        StepMeasurement lostCreate = step(lost, "lost-create");
        assertEquals(4, lostCreate.missing(), "201 as expected, without the value to extract");
        assertEquals(0, lostCreate.unexpected() + lostCreate.errors().total());
        assertEquals("step lost-create: no $.missing in the response", lostCreate.missingCause());
        assertEquals(0, step(lost, "lost-read").requests(), "an iteration ends at its failed step");
        assertEquals(0, lost.completed(), "a failed iteration's transaction counts nowhere");
        assertEquals(4, lost.failed());

        StepMeasurement wrongCreate = step(m.flows().get(2), "wrong-create");
        assertEquals(3, wrongCreate.unexpected(), "a 201 where 200 is expected");
        assertEquals(0, wrongCreate.missing() + wrongCreate.errors().total());
        assertEquals(3, m.flows().get(2).failed());

        StepMeasurement goneRead = step(m.flows().get(3), "gone-read");
        assertEquals(7, goneRead.errors().status4xx());
        assertEquals(0, goneRead.unexpected() + goneRead.missing(), "a 404 is an error of its own, whatever was expected");
        assertEquals(7, m.flows().get(3).failed());
    }

    @Test
    void anAgentsPartCountsItsStepsNotItsTransactions() throws Exception {
        String agent = "127.0.0.1:1100";
        List<Jtl.Sample> onAgent = rows().stream().map(s -> new Jtl.Sample(s.startMs(), s.elapsedMs(), s.code(), s.success(), agent + "-" + s.thread(), s.bytes(),
                s.sentBytes(), s.allThreads(), s.connectMs(), s.failure(), s.label(), s.message(), s.closed())).toList();
        Measurement m = read(onAgent, List.of(agent));
        assertEquals(68, m.agents().get(0).requests());
        assertEquals(18, m.flows().get(0).completed());
    }
}
