package dev.loomflux.lab.procedure;

import dev.loomflux.lab.target.RunningTarget;
import dev.loomflux.lab.telemetry.Phase;
import java.util.List;
import java.util.Map;

/**
 * One started target, as the procedures see it: which repeat it serves, the phases it went through
 * before any load (startup, idle), where it runs and its own /config.
 */
public record TargetVisit(RunningTarget target, int repeat, List<Phase> before, String affinity, Object config) {
    public TargetVisit {
        before = List.copyOf(before);
    }

    /** What every result records about the target process it measured. */
    Map<String, Object> stamp(Map<String, Object> r) {
        r.put("startup_ms", target.startupMillis());
        r.put("target_cpus", affinity);
        r.put("target_config", config);
        return r;
    }
}
