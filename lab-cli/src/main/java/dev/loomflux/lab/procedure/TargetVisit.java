package dev.loomflux.lab.procedure;

import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.telemetry.Phase;
import dev.loomflux.targets.TargetConfig;
import java.util.List;


/**
 * One started target, as the procedures see it: which repeat it serves, the phases it went through
 * before any load (startup, idle), where it runs and its own /config.
 */
public record TargetVisit(RunningTarget target, int repeat, List<Phase> before, String affinity, TargetConfig config) {
    public TargetVisit {
        before = List.copyOf(before);
    }

    /** What every result records about the target process it measured. */
    Result stamp(Result r) {
        return r.withVisit(repeat, target.startupMillis(), affinity, config);
    }
}
