package dev.loomflux.lab.experiment;

import dev.loomflux.lab.target.TargetSpec;
import java.time.Duration;
import java.util.List;

/** Targets x scenarios under one load profile, plus how to run them: the unit a user asks for. */
public record Experiment(String name, List<TargetSpec> targets, List<Scenario> scenarios, Profile profile,
                         Duration warmup, Duration cooldown) {
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(20);
    public static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(10);

    public Experiment {
        targets = List.copyOf(targets);
        scenarios = List.copyOf(scenarios);
    }

    public boolean needsDatabase() {
        return scenarios.stream().anyMatch(Scenario::needsDatabase);
    }
}
