package dev.loomflux.lab.cpuprofile;

import dev.loomflux.lab.result.CpuProfile;
import dev.loomflux.lab.result.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A target's CPU profile over its measured window, the same step in both designs: the {@code jdk.ExecutionSample} events of
 * its JFR recording ({@code <base>.jfr}), or of async-profiler's ({@code <base>.async.jfr}), that fall in the window, written beside it as collapsed stacks
 * ({@code <base>.collapsed}), and the result's {@link CpuProfile}, samples per {@link Category} with each one's µs of CPU
 * per request. The sequential design's window is its measured load; the paired design's is the union of the target's own
 * measured blocks, so that the other targets' turns and the lead-in rounds, when this JVM idled or warmed, count for nothing.
 *
 * <p>Only Java execution samples count: a native-method sample is as likely a thread blocked in {@code epoll_wait} as one
 * on CPU ({@link JfrSamples}). A profile is an extra: a recording not dumped, unreadable or without a sample in the window
 * costs the result its profile and the run one line of its log, never the measurement.
 */
public final class TargetProfile {
    private TargetProfile() {
    }

    /**
     * A profile, and each window's samples per category (every category, by label, in the enum's order): the paired design's
     * blocks carry theirs, for intervals over rounds.
     *
     * @param profile  null when there is none
     * @param byWindow one map per window, in the windows' order; empty when there is no profile
     */
    public record Profiled(CpuProfile profile, List<Map<String, Long>> byWindow) {
        static final Profiled NONE = new Profiled(null, List.of());

        public Profiled {
            byWindow = List.copyOf(byWindow);
        }
    }

    /**
     * @param dir             where the recording is and {@code <base>.collapsed} goes
     * @param source          the recording, or why there is none
     * @param windows         the measured window, or the target's measured blocks
     * @param cpuMsPerRequest the result's own CPU per request in ms, null when it has none
     * @param categories      the rules that put a stack in its category
     * @param log             takes the one line that says why there is no profile
     * @return null when there is none
     */
    public static Profiled write(Path dir, String base, ProfileSource source, List<TimeWindow> windows, Double cpuMsPerRequest, CategoryRules categories,
                                 Consumer<String> log) {
        if (source.whyNot() != null) {
            return none(source.whyNot(), log);
        }
        String jfr = source.file();
        try {
            JfrSamples samples = JfrSamples.read(dir.resolve(jfr), windows);
            Samples java = samples.java();
            if (java.count() == 0) {
                return none("no Java execution sample of " + jfr + " in the measured window", log);
            }
            String collapsed = base + ".collapsed";
            java.stacks().write(dir.resolve(collapsed));
            // Wall-clock samples are no CPU to share out: no µs per request, and no blocks' counts to draw them from.
            boolean cpu = source.profiler().cpu();
            List<Map<String, Long>> byWindow = cpu ? samples.javaByWindow().stream().map(stacks -> CategoryCounts.of(stacks, categories).byLabel()).toList()
                    : List.of();
            return new Profiled(of(collapsed, source.profiler(), java, categories, cpu ? cpuMsPerRequest : null), byWindow);
        } catch (IOException | RuntimeException e) {
            return none(jfr + ": " + e, log);
        }
    }

    private static Profiled none(String why, Consumer<String> log) {
        log.accept("no CPU profile: " + why);
        return Profiled.NONE;
    }

    /**
     * The profile of a window's samples: each category's samples and share of them, in the enum's order, and its µs per
     * request, the share times the result's CPU per request ({@link CategoryCounts#microsPerRequest}: the GC's and the
     * JIT's CPU, which no sample sees, is spread over the categories in proportion).
     *
     * @param java            at least one sample: without one there is nothing to share out
     * @param cpuMsPerRequest the result's CPU per request in ms; null leaves every category's µs per request null, as wall-clock samples do
     */
    static CpuProfile of(String collapsed, Profiler profiler, Samples java, CategoryRules rules, Double cpuMsPerRequest) {
        if (java.count() == 0) {
            throw new IllegalArgumentException("no samples for " + collapsed + ": nothing to share out");
        }
        CategoryCounts counts = CategoryCounts.of(java.stacks(), rules);
        Map<Category, Double> shares = counts.shares();
        Map<Category, Double> us = cpuMsPerRequest == null ? Map.of() : counts.microsPerRequest(cpuMsPerRequest * 1000);
        List<CpuProfile.CategoryShare> categories = Arrays.stream(Category.values())
                .map(c -> new CpuProfile.CategoryShare(c.label(), counts.samples().get(c), Result.round(shares.get(c)),
                        us.containsKey(c) ? Result.round(us.get(c)) : null))
                .toList();
        return new CpuProfile(collapsed, profiler.label(), java.count(), java.truncated(), categories);
    }
}
