package dev.loomflux.lab.result;

import java.util.List;
import java.util.Map;

/**
 * The resolved experiment as results.json records it: everything needed to run it again.
 *
 * @param repeat the sequential design's repeats of every target x scenario; null in the paired design
 * @param sets   the paired design's sets of JVMs; null in the sequential design
 */
public record ExperimentDescription(String name, List<TargetDescription> targets, List<ScenarioDescription> scenarios, ProfileDescription profile,
                                    double warmupS, double cooldownS, Integer repeat, Integer sets, String heap, List<String> jvmFlags, LimitsDescription limits,
                                    SweepPlan sweep, DesignDescription design, String driver) {
    /**
     * How the targets were measured against each other; rounds, block and lead-ins only for the paired design, whose rounds
     * are a cap unless {@code fixedRounds}, within {@code budgetS} of the whole run where one was given; {@code freshJvms} when
     * every block of a shape after a target's first ran on a fresh JVM of it (absent otherwise).
     */
    public record DesignDescription(String kind, Integer rounds, Double blockS, Double leadInS, Integer leadInRounds, Boolean fixedRounds, Double budgetS,
                                    Boolean freshJvms) {
        public DesignDescription(String kind, Integer rounds, Double blockS, Double leadInS, Integer leadInRounds) {
            this(kind, rounds, blockS, leadInS, leadInRounds, null, null, null);
        }
    }

    /** Measured in interleaved rounds, its JVMs in sets (not a method Jackson writes: it is no getter). */
    public boolean paired() {
        return design != null && "paired".equals(design.kind());
    }

    /** The grid of a sweep, and the most warmup of each cell after a target's first. */
    public record SweepPlan(List<SweepMap.AxisValues> axes, double cellWarmupS) {
    }

    /** A bring-your-own target has a command instead of an app. */
    public record TargetDescription(String name, String app, List<String> command, String ready, Long readyTimeoutS, Map<String, String> properties,
                                    List<String> jvmArgs, LimitsDescription limits) {
    }

    /** @param dist how the downstream's delay is spread; absent for a fixed delay */
    public record ScenarioDescription(String name, String endpoint, Map<String, Integer> params, String dist, String path) {
    }

    /**
     * The fields of the profile's kind; the others are absent.
     *
     * @param maxInFlight the rate's most requests in flight
     * @param think       each user's pause after a response (closed profiles); null without one
     */
    public record ProfileDescription(String kind, List<StageDescription> stages, Integer users, Double durationS, Integer requestsPerUser,
                                     Integer rps, Integer maxInFlight, ThinkDescription think) {
    }

    /** Equal bounds: a fixed pause; else uniform between them. */
    public record ThinkDescription(long minMs, long maxMs) {
    }

    public record StageDescription(double durationS, int users) {
    }

    /** At the top: every target's, and whether cgroups could apply them (said once, here); per target: its own. */
    public record LimitsDescription(Double cpus, Long memoryMb, Boolean applied, String note) {
    }
}
