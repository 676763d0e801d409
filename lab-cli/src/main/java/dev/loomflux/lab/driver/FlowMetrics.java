package dev.loomflux.lab.driver;

import dev.loomflux.lab.experiment.Flow;
import dev.loomflux.lab.experiment.FlowStep;
import dev.loomflux.lab.experiment.Mix;
import io.hyperfoil.api.statistics.Counters;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.http.statistics.HttpStats;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The statistics a load of flows keeps, by the metric names both drivers record them under: each step's
 * requests under the step's name, each flow's completed iterations under the flow's name, and each step's
 * responses that lacked a value to extract under {@link #missing}. A mix's names are unique and hold no
 * '.', so the three never meet. The steps' metrics are the load's requests (its throughput, latency and
 * errors, as a one-request scenario's); the flows' and the missing values' are not requests of their own.
 */
public final class FlowMetrics {
    /** The extension Hyperfoil's {@code stats} status handler counts each exact status in, as {@code status_201}. */
    public static final String EXACT_STATUS = "exact_status";

    private final Mix mix;
    private final Set<String> notRequests = new HashSet<>();

    public FlowMetrics(Mix mix) {
        this.mix = mix;
        for (Flow f : mix.flows()) {
            notRequests.add(f.name());
            f.steps().forEach(s -> notRequests.add(missing(s.name())));
        }
    }

    /** Where a step's responses without a value to extract are counted, one per response. */
    public static String missing(String step) {
        return step + ".missing";
    }

    /** The key of an exact status in {@link #EXACT_STATUS}. */
    public static String exactStatus(int status) {
        return "status_" + status;
    }

    /** Whether a metric's samples are requests of the load; every metric of a one-request load is. */
    public boolean isRequest(String metric) {
        return !notRequests.contains(metric);
    }

    /**
     * Each flow and its steps over a window.
     *
     * @param byMetric  each metric's samples keyed by the epoch ms at which their send second starts
     * @param countFrom samples from this key on are counted, up to {@code countTo} (exclusive)
     * @param shareFrom the window whose shares make throughput and time in flight ({@link WindowShare}), up to {@code shareTo}
     * @param perSecond whether to keep each second's histograms for a .hlog: a window's, not a block's, which is one interval of its
     *                  target's log (and a histogram per second, flow and step of every block would hold megabytes for nothing)
     */
    List<FlowMeasurement> measure(Map<String, ? extends NavigableMap<Long, StatisticsSnapshot>> byMetric, long countFrom, long countTo,
                                  long shareFrom, long shareTo, long sendEndMs, long timeoutMs, boolean perSecond) {
        double seconds = Math.max(0, shareTo - shareFrom) / 1000.0;
        List<FlowMeasurement> out = new ArrayList<>();
        for (Flow f : mix.flows()) {
            List<StepMeasurement> steps = new ArrayList<>();
            for (FlowStep step : f.steps()) {
                NavigableMap<Long, StatisticsSnapshot> samples = samples(byMetric, step.name());
                StatisticsSnapshot total = sum(samples, countFrom, countTo);
                long missing = sum(samples(byMetric, missing(step.name())), countFrom, countTo).requestCount;
                WindowShare share = WindowShare.of(samples, shareFrom, shareTo, sendEndMs, timeoutMs);
                steps.add(new StepMeasurement(step.name(), step.request(), total.requestCount, total.responseCount, share.rps(seconds),
                        total.histogram.copy(), Errors.of(total), unexpected(step.expect(), total), missing,
                        step.extract().stream().map(FlowStep.Extract::describe).collect(Collectors.joining(" or ")),
                        perSecond ? intervals(samples, countFrom, countTo) : List.of()));
            }
            NavigableMap<Long, StatisticsSnapshot> iterations = samples(byMetric, f.name());
            StatisticsSnapshot total = sum(iterations, countFrom, countTo);
            WindowShare share = WindowShare.of(iterations, shareFrom, shareTo, sendEndMs, timeoutMs);
            out.add(new FlowMeasurement(f.name(), total.responseCount, steps.stream().mapToLong(StepMeasurement::failures).sum(), share.rps(seconds),
                    share.inFlight(seconds), total.histogram.copy(), steps, perSecond ? intervals(iterations, countFrom, countTo) : List.of()));
        }
        return out;
    }

    /**
     * Responses with a status outside the step's expectation that no error cause counts: a 4xx, a 5xx and a status
     * outside 100..599 are errors of their own ({@link Errors}), whatever the step expected.
     */
    static long unexpected(FlowStep.Expect expect, StatisticsSnapshot s) {
        HttpStats http = HttpStats.get(s);
        long expected;
        if (expect.single()) {
            expected = s.extensions.get(EXACT_STATUS) instanceof Counters c ? c.serialize().getOrDefault(exactStatus(expect.min()), 0L) : 0;
        } else {
            expected = expect.min() == 200 ? http.status_2xx : http.status_3xx;
        }
        return Math.max(0, s.responseCount - expected - http.status_4xx - http.status_5xx - http.status_other);
    }

    private static NavigableMap<Long, StatisticsSnapshot> samples(Map<String, ? extends NavigableMap<Long, StatisticsSnapshot>> byMetric, String metric) {
        NavigableMap<Long, StatisticsSnapshot> m = byMetric.get(metric);
        return m == null ? new TreeMap<>() : m;
    }

    /** The counted seconds' histograms, each stamped with its second (epoch ms), for a .hlog. */
    private static List<Histogram> intervals(NavigableMap<Long, StatisticsSnapshot> samples, long from, long to) {
        List<Histogram> out = new ArrayList<>();
        samples.subMap(from, true, to, false).forEach((second, s) -> {
            Histogram h = s.histogram.copy();
            h.setStartTimeStamp(second);
            h.setEndTimeStamp(second + 1000);
            out.add(h);
        });
        return out;
    }

    private static StatisticsSnapshot sum(NavigableMap<Long, StatisticsSnapshot> samples, long from, long to) {
        StatisticsSnapshot total = new StatisticsSnapshot();
        samples.subMap(from, true, to, false).values().forEach(total::add);
        return total;
    }
}
