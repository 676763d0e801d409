package dev.loomflux.lab.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.LoadProfile;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhasePlanTest {
    private static LoadProfile.Stage stage(int seconds, int users) {
        return new LoadProfile.Stage(Duration.ofSeconds(seconds), users);
    }

    private static int usersAt(List<PhasePlan.LoadPhase> phases, long ms) {
        return phases.stream().filter(p -> p.startMs() <= ms && ms < p.startMs() + p.durationMs()).mapToInt(PhasePlan.LoadPhase::users).sum();
    }

    @Test
    void rampLayersFollowTheK6Curve() {
        List<LoadProfile.Stage> stages = List.of(stage(15, 50), stage(30, 100), stage(15, 0));
        PhasePlan plan = PhasePlan.of(new LoadProfile.Stages(stages), 1);
        int peak = 0;
        for (int second = 0; second < 60; second++) {
            long middle = second * 1000L + 500;
            int expected = (int) Math.round(PhasePlan.usersAt(stages, middle));
            assertEquals(expected, usersAt(plan.phases(), middle), "users in second " + second);
            peak = Math.max(peak, expected);
        }
        // The curve touches 100 only at the instant 45 s; the second before it averages 99.
        assertEquals(99, peak);
        assertEquals(0, usersAt(plan.phases(), 60_500));
        assertTrue(plan.phases().stream().allMatch(p -> p.model() == PhasePlan.Model.ALWAYS && p.startMs() % 1000 == 0));
        assertEquals(99, plan.connections(), "one connection per user at the peak");
    }

    @Test
    void shortRampIsTwoLayers() {
        PhasePlan plan = PhasePlan.of(new LoadProfile.Stages(List.of(stage(1, 10), stage(2, 10), stage(1, 0))), 1);
        assertEquals(List.of(
                new PhasePlan.LoadPhase("ramp-0-4", PhasePlan.Model.ALWAYS, 5, 0, 0, 0, 4000, 1),
                new PhasePlan.LoadPhase("ramp-1-3", PhasePlan.Model.ALWAYS, 5, 0, 0, 1000, 2000, 1)), plan.phases());
        assertEquals(10, plan.connections());
    }

    @Test
    void phasesEndInTheirLastPlannedSecond() {
        PhasePlan ramp = PhasePlan.of(new LoadProfile.Stages(List.of(stage(1, 10), stage(2, 10), stage(1, 0))), 1);
        assertEquals(3, ramp.lastSecond("ramp-0-4"));
        assertEquals(2, ramp.lastSecond("ramp-1-3"));
        assertEquals(2, PhasePlan.of(new LoadProfile.Rate(10, Duration.ofMillis(2500), 1), 1).lastSecond("rate"));
        assertEquals(Integer.MAX_VALUE, PhasePlan.of(new LoadProfile.Burst(1, 1), 1).lastSecond("burst"));
    }

    @Test
    void rampThatNeverReachesAUserIsRejected() {
        assertThrows(UsageException.class, () -> PhasePlan.of(new LoadProfile.Stages(List.of(stage(5, 0))), 1));
    }

    @Test
    void loopsStartUsersEvenlyOverOneSecond() {
        List<PhasePlan.LoadPhase> five = PhasePlan.of(new LoadProfile.Loops(5, 7), 1).phases();
        assertEquals(List.of(0L, 200L, 400L, 600L, 800L), five.stream().map(PhasePlan.LoadPhase::startMs).toList());
        assertTrue(five.stream().allMatch(p -> p.users() == 1 && p.requests() == 7 && p.model() == PhasePlan.Model.AT_ONCE));

        // Slots of at least one user per event loop, so that the loops share the users.
        List<PhasePlan.LoadPhase> twoLoops = PhasePlan.of(new LoadProfile.Loops(5, 7), 2).phases();
        assertEquals(List.of(0L, 500L), twoLoops.stream().map(PhasePlan.LoadPhase::startMs).toList());
        assertEquals(List.of(2, 3), twoLoops.stream().map(PhasePlan.LoadPhase::users).toList());

        List<PhasePlan.LoadPhase> many = PhasePlan.of(new LoadProfile.Loops(1000, 1), 1).phases();
        assertEquals(50, many.size());
        assertEquals(980, many.get(49).startMs());
        assertTrue(many.stream().allMatch(p -> p.users() == 20));
    }

    @Test
    void connectionsMatchPeakUsers() {
        assertEquals(20, PhasePlan.of(new LoadProfile.Fixed(20, Duration.ofSeconds(3)), 1).connections());
        assertEquals(5, PhasePlan.of(new LoadProfile.Fixed(5, Duration.ofSeconds(3)), 2).connections());
        assertEquals(2, PhasePlan.of(new LoadProfile.Fixed(1, Duration.ofSeconds(3)), 2).connections(), "Hyperfoil's minimum: one per loop");
        assertEquals(50, PhasePlan.of(new LoadProfile.Burst(50, 4), 2).connections());
        assertEquals(5, PhasePlan.of(new LoadProfile.Loops(5, 200), 2).connections());
        assertEquals(1000, PhasePlan.of(new LoadProfile.Loops(1000, 1), 4).connections());
        assertEquals(37, PhasePlan.of(new LoadProfile.Rate(500, Duration.ofSeconds(3), 37), 2).connections());
    }

    @Test
    void connectionsCoverEveryLoopWhenPhasesStartOnTheFirstLoop() {
        // Two layers of 5 users on 2 loops: each puts 3 users on loop 0, so loop 0 needs 6 connections.
        PhasePlan plan = PhasePlan.of(new LoadProfile.Stages(List.of(stage(1, 10), stage(2, 10), stage(1, 0))), 2);
        assertEquals(11, plan.connections(), "split 6 + 5");
    }

    @Test
    void intendedArrivalsFollowTheMetronome() {
        PhasePlan rate = PhasePlan.of(new LoadProfile.Rate(200, Duration.ofSeconds(3), 50), 1);
        assertEquals(List.of(200L, 200L, 200L, 0L), List.of(rate.intended(0, Long.MAX_VALUE), rate.intended(1, Long.MAX_VALUE),
                rate.intended(2, Long.MAX_VALUE), rate.intended(3, Long.MAX_VALUE)));
        assertEquals(100, rate.intended(2, 2500), "a run cancelled at 2.5 s");
        assertTrue(rate.fullSecond(2, 3000));
        assertFalse(rate.fullSecond(2, 2500));

        // Arrivals at 0, 500, 1000 ms: the one at 1.5 s is past the end.
        PhasePlan slow = PhasePlan.of(new LoadProfile.Rate(2, Duration.ofMillis(1500), 1), 1);
        assertEquals(2, slow.intended(0, Long.MAX_VALUE));
        assertEquals(1, slow.intended(1, Long.MAX_VALUE));
        // 3/s: arrivals at 0, 333.3, 666.7 ms in every second.
        PhasePlan thirds = PhasePlan.of(new LoadProfile.Rate(3, Duration.ofSeconds(2), 1), 1);
        assertEquals(3, thirds.intended(1, Long.MAX_VALUE));

        assertEquals(-1, PhasePlan.of(new LoadProfile.Fixed(1, Duration.ofSeconds(1)), 1).intended(0, Long.MAX_VALUE));
    }
}
