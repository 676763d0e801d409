package dev.loomflux.lab.result;

import dev.loomflux.lab.experiment.Design;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.TargetSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The resolved experiment as results.json records it: everything needed to run it again. */
public record ExperimentDescription(String name, List<TargetDescription> targets, List<ScenarioDescription> scenarios, ProfileDescription profile,
                                    double warmupS, double cooldownS, Integer repeat, String heap, List<String> jvmFlags, Limits limits,
                                    SweepPlan sweep, DesignDescription design) {
    /** How the targets were measured against each other; rounds, block and lead-ins only for the paired design. */
    public record DesignDescription(String kind, Integer rounds, Double blockS, Double leadInS, Integer leadInRounds) {
    }

    /** The grid of a sweep, and the most warmup of each cell after a target's first. */
    public record SweepPlan(List<SweepMap.Axis> axes, double cellWarmupS) {
    }

    /** A bring-your-own target has a command instead of an app. */
    public record TargetDescription(String name, String app, List<String> command, String ready, Long readyTimeoutS, Map<String, String> properties,
                                    List<String> jvmArgs, Limits limits) {
    }

    /** @param dist how the downstream's delay is spread; absent for a fixed delay */
    public record ScenarioDescription(String name, String endpoint, Map<String, Integer> params, String dist, String path) {
    }

    /** The fields of the profile's kind; the others are absent. */
    /** @param think each user's pause after a response (closed profiles); null without one */
    public record ProfileDescription(String kind, List<StageDescription> stages, Integer users, Double durationS, Integer requestsPerUser,
                                     Integer rps, Integer maxUsers, ThinkDescription think) {
    }

    /** Equal bounds: a fixed pause; else uniform between them. */
    public record ThinkDescription(long minMs, long maxMs) {
    }

    public record StageDescription(double durationS, int users) {
    }

    /** At the top: every target's, and whether cgroups could apply them (said once, here); per target: its own. */
    public record Limits(Double cpus, Long memoryMb, Boolean applied, String note) {
        static Limits of(ResourceLimits l) {
            return new Limits(l.cpus() > 0 ? l.cpus() : null, l.memoryBytes() > 0 ? l.memoryBytes() / (1 << 20) : null, null, null);
        }
    }

    public static ExperimentDescription of(Experiment e, LaunchSettings settings) {
        List<TargetDescription> targets = e.targets().stream().map(ExperimentDescription::target).toList();
        List<ScenarioDescription> scenarios = e.scenarios().stream()
                .map(s -> new ScenarioDescription(s.name(), s.kind().id(), s.orderedParams(), s.dist(), s.path())).toList();
        Limits limits = null;
        // Present whenever a target runs limited.
        if (settings.limits().any() || e.targets().stream().anyMatch(t -> t.limits().any())) {
            Limits own = Limits.of(settings.limits());
            Optional<String> unsupported = Cgroup.unsupported();
            limits = new Limits(own.cpus(), own.memoryMb(), unsupported.isEmpty(),
                    unsupported.orElse(Cgroup.mechanism() + "; the JVM sees the quota rounded up (ActiveProcessorCount)"));
        }
        return new ExperimentDescription(e.name(), targets, scenarios, profile(e.profile()), seconds(e.warmup()), seconds(e.cooldown()), e.repeat(),
                settings.heap(), settings.jvmFlags(), limits, e.sweep() == null ? null
                        : new SweepPlan(e.sweep().axes().stream().map(a -> new SweepMap.Axis(a.name(), a.label(), a.values())).toList(),
                        seconds(e.sweep().cellWarmup())),
                e.inRounds() ? new DesignDescription("paired", e.design().rounds(), seconds(e.design().block()), seconds(e.design().leadIn()),
                        Design.LEAD_IN) : new DesignDescription("sequential", null, null, null, null));
    }

    private static TargetDescription target(TargetSpec t) {
        var c = t.command();
        return new TargetDescription(t.name(), t.app() == null ? null : t.app().name().toLowerCase(), c == null ? null : c.argv(),
                c == null ? null : c.ready(), c == null ? null : c.readyTimeout().toSeconds(), t.properties(), t.jvmArgs(),
                t.limits().any() ? Limits.of(t.limits()) : null);
    }

    static ProfileDescription profile(Profile p) {
        ThinkDescription think = p.think().none() ? null : new ThinkDescription(p.think().min().toMillis(), p.think().max().toMillis());
        if (p instanceof Profile.Stages s) {
            return new ProfileDescription(p.kind(), s.stages().stream().map(x -> new StageDescription(seconds(x.duration()), x.users())).toList(),
                    null, null, null, null, null, think);
        } else if (p instanceof Profile.Fixed f) {
            return new ProfileDescription(p.kind(), null, f.users(), seconds(f.duration()), null, null, null, think);
        } else if (p instanceof Profile.Loops l) {
            return new ProfileDescription(p.kind(), null, l.users(), null, l.requests(), null, null, think);
        } else if (p instanceof Profile.Burst b) {
            return new ProfileDescription(p.kind(), null, b.users(), null, b.requests(), null, null, think);
        }
        Profile.Rate r = (Profile.Rate) p;
        return new ProfileDescription(p.kind(), null, null, seconds(r.duration()), null, r.rps(), r.maxUsers(), null);
    }

    private static double seconds(java.time.Duration d) {
        return d.toMillis() / 1000.0;
    }
}
