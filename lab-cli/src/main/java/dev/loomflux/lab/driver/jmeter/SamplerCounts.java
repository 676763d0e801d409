package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.MeasuredWindow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A user's plan's requests by sampler (the results file's {@code label}), by the second they were sent in, as the
 * load's statistics count them: so that the run's log can say what each sampler did in the measured window until
 * results.json holds a plan's samplers as steps.
 */
final class SamplerCounts {
    /** Per sampler, in the order they first answered: per second, requests, responses and failures. */
    private final Map<String, TreeMap<Long, long[]>> bySampler = new LinkedHashMap<>();

    /** @param started when the load's first request was sent, epoch ms: second 0 */
    synchronized void add(List<Jtl.Sample> samples, long started) {
        for (Jtl.Sample s : samples) {
            long[] counts = bySampler.computeIfAbsent(s.label(), k -> new TreeMap<>())
                    .computeIfAbsent(Math.floorDiv(s.startMs() - started, 1000L), k -> new long[3]);
            counts[0]++;
            if (s.code().matches("\\d{3}")) {
                counts[1]++;
            }
            if (!s.success()) {
                counts[2]++;
            }
        }
    }

    /**
     * A line per sampler over the window's seconds (every second without one): its requests, the responses to them,
     * and those JMeter marked failed (a status of 400 or more, a failed assertion, no response).
     */
    synchronized List<String> lines(MeasuredWindow window) {
        long from = window == null || window.from() < 0 ? Long.MIN_VALUE : window.from();
        long to = window == null || window.from() < 0 ? Long.MAX_VALUE : from + window.seconds();
        List<String> out = new ArrayList<>();
        bySampler.forEach((sampler, seconds) -> {
            long[] sum = new long[3];
            seconds.subMap(from, to).values().forEach(c -> {
                for (int i = 0; i < sum.length; i++) {
                    sum[i] += c[i];
                }
            });
            out.add("sampler '" + sampler + "': " + sum[0] + " requests, " + sum[1] + " responses, " + sum[2] + " failed");
        });
        return out;
    }
}
