package dev.loomflux.lab.result;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A result's {@code profile} (docs/results-schema.md): where its target's CPU went over the measured window, from the
 * {@code jdk.ExecutionSample} events of its JFR recording (threads running Java code), or of async-profiler's (any thread,
 * native frames too), put in categories. In the sequential
 * design the window is the measured load; in the paired design the target's own measured blocks, lead-in rounds left out.
 *
 * @param collapsed  the window's samples as collapsed stacks beside results.json ({@code <target>.<scenario>.collapsed}), for a
 *                   flame graph
 * @param profiler   what took the samples: {@code jfr}, {@code async} or {@code async-wall}; absent in files from before the choice
 *                   (docs/results-schema.md): jfr
 * @param samples    the samples in the window
 * @param truncated  how many of them JFR cut at its stack depth; they count, under the category of their leaf-most known frame
 * @param categories every category, in the lab's order, even one without a sample
 */
public record CpuProfile(String collapsed, String profiler, long samples, long truncated, List<CategoryShare> categories) {
    public CpuProfile {
        profiler = profiler == null ? "jfr" : profiler;
        categories = List.copyOf(categories);
    }

    /** Each category's µs of CPU per request, in the profile's order; null when a category has none (no CPU figure, or wall-clock samples). */
    public Map<String, Double> usPerRequest() {
        if (categories.stream().anyMatch(c -> c.usPerRequest() == null)) {
            return null;
        }
        Map<String, Double> us = new LinkedHashMap<>();
        categories.forEach(c -> us.put(c.category(), c.usPerRequest()));
        return us;
    }

    /**
     * One category's part.
     *
     * @param category     its label: {@code server-io}, {@code vt-scheduling}, {@code app} ...
     * @param share        its samples over all the window's samples
     * @param usPerRequest the share times the result's own CPU per request, in µs; null when the result has no CPU per request,
     *                     or the samples are wall-clock time
     */
    public record CategoryShare(String category, long samples, double share, Double usPerRequest) {
    }
}
