package dev.loomflux.lab.cpuprofile;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Samples per {@link Category}, every category present (0 when none), in the enum's order.
 *
 * @param samples how many samples each category got
 */
public record CategoryCounts(Map<Category, Long> samples) {
    public CategoryCounts {
        EnumMap<Category, Long> all = new EnumMap<>(Category.class);
        for (Category c : Category.values()) {
            all.put(c, samples.getOrDefault(c, 0L));
        }
        samples = Collections.unmodifiableMap(all);
    }

    public static CategoryCounts of(CollapsedStacks stacks, CategoryRules rules) {
        Map<Category, Long> samples = new EnumMap<>(Category.class);
        stacks.counts().forEach((stack, n) -> samples.merge(rules.classify(stack), n, Long::sum));
        return new CategoryCounts(samples);
    }

    /** The same counts by each category's label, in the enum's order: as results.json names them. */
    public Map<String, Long> byLabel() {
        Map<String, Long> out = new LinkedHashMap<>();
        samples.forEach((c, n) -> out.put(c.label(), n));
        return Collections.unmodifiableMap(out);
    }

    public long total() {
        return samples.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Each category's fraction of the samples, adding up to 1; empty when there are no samples, as nothing can be shared out. */
    public Map<Category, Double> shares() {
        long total = total();
        Map<Category, Double> shares = new EnumMap<>(Category.class);
        if (total > 0) {
            samples.forEach((c, n) -> shares.put(c, (double) n / total));
        }
        return Collections.unmodifiableMap(shares);
    }

    /**
     * CPU microseconds per request spent in each category: its share of the samples times the CPU
     * the samples stand for. Under JFR that is the Java threads' CPU: the process's CPU per request
     * counts the GC and JIT compiler threads too, which no JFR sample sees, and so spreads their CPU
     * over the categories in proportion; async-profiler samples every thread, so there they have
     * their own categories.
     *
     * @param cpuMicrosPerRequest the CPU per request, in µs, of the same block the samples are from
     * @return empty when there are no samples
     */
    public Map<Category, Double> microsPerRequest(double cpuMicrosPerRequest) {
        Map<Category, Double> us = new EnumMap<>(Category.class);
        shares().forEach((c, share) -> us.put(c, share * cpuMicrosPerRequest));
        return Collections.unmodifiableMap(us);
    }
}
