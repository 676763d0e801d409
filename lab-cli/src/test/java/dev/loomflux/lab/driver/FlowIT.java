package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.driver.hyperfoil.Hyperfoil;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowData;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Think;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Flows on the Hyperfoil driver against the stub's items (POST /items answers the new id, GET and DELETE /items/{id}
 * find it or answer 404): whole iterations counted per flow and per step, values carried from one step to the next,
 * and a step that fails ending its iteration without stopping the run.
 */
class FlowIT {
    private static final LoadDriver DRIVER = new Hyperfoil();
    private static final int USERS = 8;
    /** The pause after the create: it makes an iteration long (about 20 ms) beside the gap between a user's iterations. */
    private static final Think AFTER_CREATE = new Think(Duration.ofMillis(20), Duration.ofMillis(20));

    private static Stub stub;

    @BeforeAll
    static void startStub() throws Exception {
        stub = Stub.start();
        // The first load in a JVM pays for class loading and the JIT; a short one here does.
        DRIVER.run(new LoadSpec(stub.base(), "/items", new LoadProfile.Fixed(USERS, Duration.ofSeconds(3)), 1, LoadSpec.DEFAULT_REQUEST_TIMEOUT,
                mix(crud("warm", "$.id"))), null);
    }

    @AfterAll
    static void stopStub() throws Exception {
        if (stub != null) {
            stub.close();
        }
    }

    /** Create an item, read it back by the id the create answered with, delete it. */
    private static Flow crud(String name, String idPath) {
        return new Flow(name, 1, List.of(
                new FlowStep(name + "-create", FlowStep.Method.POST, "/items", Map.of("Content-Type", "application/json"), "{\"name\": \"item-${n}\"}", null,
                        new FlowStep.Expect(201, 201), List.of(new FlowStep.Extract("id", FlowStep.Extract.Source.JSON, idPath)), AFTER_CREATE),
                new FlowStep(name + "-read", FlowStep.Method.GET, "/items/${id}", Map.of(), null, null, new FlowStep.Expect(200, 200), List.of(), Think.NONE),
                new FlowStep(name + "-delete", FlowStep.Method.DELETE, "/items/${id}", Map.of(), null, null, new FlowStep.Expect(204, 204), List.of(),
                        Think.NONE)), Map.of("n", new FlowData.Unique()), null);
    }

    private static Mix mix(Flow... flows) {
        return new Mix(flows[0].name(), 1, List.of(flows));
    }

    private static Measurement run(Mix mix, Duration duration) {
        Measurement m = DRIVER.run(new LoadSpec(stub.base(), "/items", new LoadProfile.Fixed(USERS, duration), 1, LoadSpec.DEFAULT_REQUEST_TIMEOUT, mix), null);
        for (FlowMeasurement f : m.flows()) {
            System.out.printf("flow %s: completed=%d failed=%d throughput=%.2f/s mean=%.3f ms in flight=%.3f%n", f.flow(), f.completed(), f.failed(),
                    f.throughput(), f.latency().getMean() / 1e6, f.inFlight());
            f.steps().forEach(s -> System.out.printf("  %s: requests=%d responses=%d throughput=%.2f/s errors=%s unexpected=%d missing=%d%n", s.step(),
                    s.requests(), s.responses(), s.throughput(), s.errors(), s.unexpected(), s.missing()));
        }
        return m;
    }

    @Test
    void everyCreatedIdIsReadBackAndLittlesLawHoldsPerFlow() throws Exception {
        long created = stub.count("created");
        long read = stub.count("read");
        long deleted = stub.count("deleted");
        long notFound = stub.count("notFound");
        Measurement m = run(mix(crud("crud", "$.id")), Duration.ofSeconds(10));
        FlowMeasurement crud = m.flows().get(0);

        // Every create's id went into the read after it and the delete after that, for every user: the stub found each one.
        assertEquals(0, stub.count("notFound") - notFound, "no read or delete of an id the stub does not hold");
        long creates = stub.count("created") - created;
        assertEquals(creates, stub.count("read") - read, "every created item read back");
        assertEquals(creates, stub.count("deleted") - deleted, "and deleted");
        assertEquals(creates, crud.completed(), "every iteration went through all three steps");
        assertEquals(0, crud.failed());
        for (StepMeasurement s : crud.steps()) {
            assertEquals(creates, s.responses(), s.step());
            assertEquals(0, s.failures(), s.step());
        }
        assertEquals(3 * creates, m.requests(), "the load's requests are its steps'");

        // Little's law per flow: users = completed iterations per second x their mean latency, within 2%.
        double littles = crud.throughput() * crud.latency().getMean() / 1e9;
        assertEquals(USERS, littles, USERS * 0.02, "throughput " + crud.throughput() + "/s x mean " + crud.latency().getMean() / 1e6 + " ms");
        assertTrue(crud.latency().getMean() >= AFTER_CREATE.min().toNanos(), "an iteration's latency holds the pause between its steps");
        for (StepMeasurement s : crud.steps()) {
            assertEquals(crud.throughput(), s.throughput(), crud.throughput() * 0.02, "each step as often as the flow: " + s.step());
        }
    }

    /**
     * Two blocks of one target back to back across a round boundary (a b | b a | a b ...) count every request of their
     * iterations, three per completed iteration, as every other block does. Before the lab had Hyperfoil prune a terminated
     * phase's statistics at once, the second of two such blocks counted 76-304 requests for 311-376 iterations (issue 46).
     */
    @Test
    void backToBackBlocksOfOneTargetCountEveryRequest() throws Exception {
        List<List<Integer>> order = List.of(List.of(0, 1), List.of(1, 0), List.of(0, 1), List.of(1, 0), List.of(0, 1), List.of(1, 0));
        try (Stub other = Stub.start()) {
            Rounds rounds = new Rounds(List.of(new Rounds.Target("a", stub.base()), new Rounds.Target("b", other.base())), "/items",
                    new LoadProfile.Fixed(USERS, Duration.ofSeconds(1)), order, 1, Duration.ofSeconds(10), Duration.ZERO, mix(crud("crud", "$.id")));
            List<Block> blocks = DRIVER.run(rounds, new Rounds.Listener() {
                @Override
                public void started(String target, int round) {
                }

                @Override
                public void ended(Block block) {
                }
            });
            assertEquals(12, blocks.size());
            for (Block b : blocks) {
                FlowMeasurement f = b.flows().get(0);
                String where = "round " + b.round() + ", position " + b.position() + ", " + b.target() + ": " + b.requests() + " requests, " + f.completed()
                        + " iterations";
                assertTrue(f.completed() > 50, where);
                assertEquals(3 * f.completed(), b.requests(), where);
                for (StepMeasurement s : f.steps()) {
                    assertEquals(f.completed(), s.responses(), s.step() + ", " + where);
                }
            }
        }
    }

    @Test
    void aResponseWithoutTheValueFailsItsStepAndTheNextIterationStartsOver() throws Exception {
        long read = stub.count("read");
        long notFound = stub.count("notFound");
        Measurement m = run(mix(crud("lost", "$.missing")), Duration.ofSeconds(4));
        FlowMeasurement lost = m.flows().get(0);
        StepMeasurement create = lost.steps().get(0);

        assertTrue(create.responses() > USERS * 10, "the run went on: " + create.responses() + " creates");
        assertEquals(create.responses(), create.missing(), "every create lacked $.missing");
        assertEquals("step lost-create: no $.missing in the response", create.missingCause());
        assertEquals(0, create.errors().total() + create.unexpected());
        assertEquals(0, lost.steps().get(1).requests(), "no read without its id");
        assertEquals(0, lost.completed());
        assertEquals(create.missing(), lost.failed());
        assertEquals(0, stub.count("read") - read);
        assertEquals(0, stub.count("notFound") - notFound);
    }

    @Test
    void aMixRunsItsFlowsByWeight() throws Exception {
        Flow heavy = new Flow("heavy", 3, crud("heavy", "$.id").steps(), Map.of("n", new FlowData.Unique()), null);
        Flow light = new Flow("light", 1, crud("light", "$.id").steps(), Map.of("n", new FlowData.Unique()), null);
        Measurement m = run(new Mix("weighted", 5, List.of(heavy, light)), Duration.ofSeconds(6));
        long a = m.flows().get(0).completed();
        long b = m.flows().get(1).completed();
        double share = a / (double) (a + b);
        // About 2,000 iterations at 3:1: the share is 0.75 within 5 standard deviations (0.05).
        assertEquals(0.75, share, 0.05, a + " heavy, " + b + " light");
        assertEquals(0, m.flows().get(0).failed() + m.flows().get(1).failed());
    }
}
