package dev.loomflux.lab.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loomflux.lab.experiment.LoadProfile;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseTest {
    @Test
    void k6StagesBecomeSeed000sPhasesCutAtTheRunsEnd() {
        LoadProfile stages = new LoadProfile.Stages(List.of(new LoadProfile.Stage(Duration.ofSeconds(15), 50),
                new LoadProfile.Stage(Duration.ofSeconds(30), 50), new LoadProfile.Stage(Duration.ofSeconds(15), 150),
                new LoadProfile.Stage(Duration.ofSeconds(30), 0)));
        List<Phase> phases = Phase.ofProfile(stages, 1000, 1000 + 80_000);
        assertEquals(List.of(new Phase("ramp to 50", 1000, 16_000), new Phase("hold 50", 16_000, 46_000),
                new Phase("ramp to 150", 46_000, 61_000), new Phase("ramp down to 0", 61_000, 81_000)), phases);
    }

    @Test
    void otherProfilesAreOnePhase() {
        assertEquals(List.of(new Phase("steady", 0, 5000)), Phase.ofProfile(new LoadProfile.Fixed(10, Duration.ofSeconds(5)), 0, 5000));
        assertEquals("burst", Phase.ofProfile(new LoadProfile.Burst(10, 5), 0, 700).get(0).name());
    }
}
