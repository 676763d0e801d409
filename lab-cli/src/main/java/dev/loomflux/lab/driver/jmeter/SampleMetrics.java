package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.FlowMetrics;
import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import io.hyperfoil.api.statistics.Counters;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The metrics a row of JMeter's results file is counted under, by its label, as the Hyperfoil driver records the same
 * load ({@link FlowMetrics}). One request per iteration: the row's label. A load of flows ({@link JmeterFlows}): a
 * step's row under the step's name, with its exact status, and once more under {@link FlowMetrics#missing} when its
 * status was the one expected but an assertion on a value to extract failed; the row of a flow's Transaction
 * Controller under the flow's name when it succeeded, one completed iteration from its start to its last step's end.
 * The Transaction Controller does not generate a parent sample, so its row follows its steps' rows; it writes one for
 * a failed iteration too (when the failed step starts the next loop), unsuccessful and without a status, which counts
 * nowhere: the step that failed is the iteration's failure, as with Hyperfoil.
 */
final class SampleMetrics {
    static final SampleMetrics ONE_REQUEST = new SampleMetrics(Map.of(), Set.of(), false);

    private final Map<String, FlowStep> steps;
    private final Set<String> flows;
    private final boolean mix;

    private SampleMetrics(Map<String, FlowStep> steps, Set<String> flows, boolean mix) {
        this.steps = steps;
        this.flows = flows;
        this.mix = mix;
    }

    /** @param mix null: one request per iteration */
    static SampleMetrics of(Mix mix) {
        if (mix == null) {
            return ONE_REQUEST;
        }
        Map<String, FlowStep> steps = new HashMap<>();
        Set<String> flows = new HashSet<>();
        for (Flow f : mix.flows()) {
            flows.add(f.name());
            f.steps().forEach(s -> steps.put(s.name(), s));
        }
        return new SampleMetrics(steps, flows, true);
    }

    /** A flow's Transaction Controller wrote the row: an iteration, not a request. */
    boolean isFlow(Jtl.Sample s) {
        return flows.contains(s.label());
    }

    /**
     * Counts a row into the statistics of each metric it belongs to.
     *
     * @param metric finds or makes a metric's statistics for the row's second
     */
    void count(Jtl.Sample s, Function<String, StatisticsSnapshot> metric) {
        if (!mix) {
            Jmeter.count(metric.apply(s.label()), s);
            return;
        }
        FlowStep step = steps.get(s.label());
        if (step != null) {
            StatisticsSnapshot own = metric.apply(step.name());
            Jmeter.count(own, s);
            int status = Jmeter.status(s);
            if (status < 0) {
                return;
            }
            ((Counters) own.extensions.computeIfAbsent(FlowMetrics.EXACT_STATUS, k -> new Counters())).increment(FlowMetrics.exactStatus(status));
            if (!s.success() && status >= step.expect().min() && status <= step.expect().max()) {
                Jmeter.count(metric.apply(FlowMetrics.missing(step.name())), s);
            }
        } else if (isFlow(s) && s.success()) {
            StatisticsSnapshot iterations = metric.apply(s.label());
            iterations.requestCount++;
            iterations.responseCount++;
            iterations.histogram.recordValue(Math.max(1, s.elapsedMs()) * 1_000_000L);
        }
    }
}
