package dev.loomflux.lab.telemetry;

import dev.loomflux.lab.experiment.LoadProfile;
import java.util.ArrayList;
import java.util.List;

/** A named span of the run (startup, idle, warmup, or one of the profile's own phases), epoch ms. */
public record Phase(String name, long fromMs, long toMs) {

    /**
     * The profile's own phases, as a reader of seed 000 knows them: k6 stages become "ramp to 50",
     * "hold 100", "ramp down to 0"; other profiles are one phase.
     */
    public static List<Phase> ofProfile(LoadProfile profile, long startMs, long endMs) {
        if (!(profile instanceof LoadProfile.Stages)) {
            String name = profile instanceof LoadProfile.Fixed ? "steady" : profile.kind();
            return List.of(new Phase(name, startMs, endMs));
        }
        List<Phase> phases = new ArrayList<>();
        int users = 0;
        long from = startMs;
        for (LoadProfile.Stage s : ((LoadProfile.Stages) profile).stages()) {
            String name = s.users() > users ? "ramp to " + s.users() : s.users() == users ? "hold " + s.users() : "ramp down to " + s.users();
            long to = Math.min(endMs, from + s.duration().toMillis());
            phases.add(new Phase(name, from, to));
            users = s.users();
            from = to;
        }
        return phases;
    }
}
