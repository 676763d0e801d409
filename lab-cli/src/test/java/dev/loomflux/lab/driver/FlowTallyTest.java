package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loomflux.lab.experiment.Mix;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import io.hyperfoil.api.statistics.Counters;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.http.statistics.HttpStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A load of flows counted by step and by flow: the steps' requests are the load's, the flows' iterations and missing values are not. */
class FlowTallyTest {
    private static final Mix CRUD = Scenario.of("crud", Map.of(), true, "test").mix();
    private static final long START = 1_000_000L;

    /** One second's sample of a metric: responses of these statuses, each taking {@code ms}. */
    private static StatisticsSnapshot sample(int second, long ms, int... statuses) {
        StatisticsSnapshot s = new StatisticsSnapshot();
        s.histogram.setStartTimeStamp(START + second * 1000L);
        HttpStats http = new HttpStats();
        Counters exact = new Counters();
        for (int status : statuses) {
            s.requestCount++;
            s.responseCount++;
            s.histogram.recordValue(ms * 1_000_000);
            switch (status / 100) {
                case 2 -> http.status_2xx++;
                case 3 -> http.status_3xx++;
                case 4 -> http.status_4xx++;
                default -> http.status_5xx++;
            }
            exact.increment(FlowMetrics.exactStatus(status));
        }
        s.extensions.put(HttpStats.HTTP, http);
        s.extensions.put(FlowMetrics.EXACT_STATUS, exact);
        return s;
    }

    @Test
    void stepsAreTheRequestsAndTheirFailuresTheFlowsFailedIterations() {
        Tally tally = new Tally(PhasePlan.of(new LoadProfile.Fixed(4, Duration.ofSeconds(2)), 1), s -> { }, null, 10_000, new FlowMetrics(CRUD));
        tally.start(START);
        // Second 0: three creates (a 201, a 200 where 201 is expected, a 201 without its id), one 404 on a read, two whole iterations.
        tally.add("fixed", "create", sample(0, 10, 201, 200, 201));
        tally.add("fixed", FlowMetrics.missing("create"), sample(0, 10, 201));
        tally.add("fixed", "read", sample(0, 5, 200, 404));
        tally.add("fixed", "crud", sample(0, 40, 200, 200));
        tally.add("fixed", "update", sample(1, 5, 200));
        Measurement m = tally.finish(START + 2000);

        assertEquals(6, m.requests(), "the steps' requests only");
        assertEquals(1, m.errors().status4xx());
        FlowMeasurement crud = m.flows().get(0);
        assertEquals(2, crud.completed());
        assertEquals(3, crud.failed(), "a 200 where 201 was expected, a create without its id, a read of 404");
        assertEquals(40, crud.latency().getMean() / 1e6, 1);
        assertEquals(List.of("create", "read", "update", "delete"), crud.steps().stream().map(StepMeasurement::step).toList());
        StepMeasurement create = crud.steps().get(0);
        assertEquals(1, create.unexpected());
        assertEquals(1, create.missing());
        assertEquals("step create: no $.id in the response", create.missingCause());
        assertEquals(3, create.responses());
        assertEquals(1.5, create.throughput(), 0.01, "3 responses over the 2 s");
        assertEquals(1, crud.steps().get(1).errors().total());
        assertEquals(0, crud.steps().get(1).unexpected(), "a 404 is an error of its own, not an unexpected status");
        assertEquals(1, crud.steps().get(2).requests());
        // Each step's and the flow's seconds, for their .hlog files: create answered in second 0 only, update in second 1.
        assertEquals(List.of(START), create.intervals().stream().map(h -> h.getStartTimeStamp()).toList());
        assertEquals(List.of(START + 1000), crud.steps().get(2).intervals().stream().map(h -> h.getStartTimeStamp()).toList());
        assertEquals(2, crud.intervals().get(0).getTotalCount());
    }

    @Test
    void aOneRequestLoadHasNoFlows() {
        Tally tally = new Tally(PhasePlan.of(new LoadProfile.Fixed(4, Duration.ofSeconds(1)), 1), s -> { }, null, 10_000);
        tally.start(START);
        tally.add("fixed", PhasePlan.METRIC, sample(0, 10, 200, 200));
        Measurement m = tally.finish(START + 1000);
        assertEquals(2, m.requests());
        assertEquals(List.of(), m.flows());
    }
}
