package dev.loomflux.lab.driver.hyperfoil;

import io.hyperfoil.api.config.BenchmarkDefinitionException;
import io.hyperfoil.api.config.Name;
import io.hyperfoil.api.config.Step;
import io.hyperfoil.api.config.StepBuilder;
import io.hyperfoil.api.session.Session;
import io.hyperfoil.api.statistics.Statistics;
import io.hyperfoil.core.steps.StatisticsStep;
import java.util.List;

/**
 * Records the iteration under way, from its start ({@link FlowIterationStep}) until now, as one request and its
 * response under a metric of its own: at a flow's end, its completed iteration; in the sequence a step's missing
 * value starts, that miss. Hyperfoil's {@code stopwatch} does the same for nested steps but cannot be written in a
 * benchmark's YAML.
 *
 * <pre>
 * - loomflux-record:
 *     metric: crud
 * </pre>
 */
public final class FlowRecordStep extends StatisticsStep {
    private final String metric;

    private FlowRecordStep(String metric) {
        super(StatisticsStep.nextId());
        this.metric = metric;
    }

    @Override
    public boolean invoke(Session session) {
        long now = System.nanoTime();
        FlowIterationStep.Iteration iteration = session.getResource(FlowIterationStep.IterationKey.ITERATION);
        Statistics statistics = session.statistics(id(), metric);
        statistics.incrementRequests(iteration.startMillis);
        statistics.recordResponse(iteration.startMillis, now - iteration.startNanos);
        return true;
    }

    /** Records the iteration under way under a metric. */
    @Name("loomflux-record")
    public static final class Builder implements StepBuilder<Builder> {
        private String metric;

        public Builder metric(String metric) {
            this.metric = metric;
            return this;
        }

        @Override
        public List<Step> build() {
            if (metric == null || metric.isEmpty()) {
                throw new BenchmarkDefinitionException("loomflux-record: name its metric");
            }
            return List.of(new FlowRecordStep(metric));
        }
    }
}
