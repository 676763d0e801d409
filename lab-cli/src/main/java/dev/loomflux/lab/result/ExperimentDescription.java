package dev.loomflux.lab.result;

import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.limits.Cgroup;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.target.LaunchSettings;
import dev.loomflux.lab.target.TargetSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The resolved experiment as results.json records it: everything needed to run it again. */
public final class ExperimentDescription {
    private ExperimentDescription() {
    }

    public static Map<String, Object> of(Experiment e, LaunchSettings settings) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", e.name());
        List<Map<String, Object>> targets = new ArrayList<>();
        for (TargetSpec t : e.targets()) {
            Map<String, Object> tm = new LinkedHashMap<>();
            tm.put("name", t.name());
            tm.put("app", t.app() == null ? null : t.app().name().toLowerCase());
            if (t.command() != null) {
                tm.put("command", t.command().argv());
                tm.put("ready", t.command().ready());
                tm.put("ready_timeout_s", t.command().readyTimeout().toSeconds());
            }
            tm.put("properties", t.properties());
            tm.put("jvm_args", t.jvmArgs());
            if (t.limits().any()) {
                tm.put("limits", limits(t.limits()));
            }
            targets.add(tm);
        }
        m.put("targets", targets);
        List<Map<String, Object>> scenarios = new ArrayList<>();
        for (Scenario s : e.scenarios()) {
            scenarios.add(s.describe());
        }
        m.put("scenarios", scenarios);
        m.put("profile", profile(e.profile()));
        m.put("warmup_s", e.warmup().toMillis() / 1000.0);
        m.put("cooldown_s", e.cooldown().toMillis() / 1000.0);
        m.put("repeat", e.repeat());
        m.put("heap", settings.heap());
        m.put("jvm_flags", settings.jvmFlags());
        // Present whenever a target runs limited: whether cgroups could apply them is said once, here.
        if (settings.limits().any() || e.targets().stream().anyMatch(t -> t.limits().any())) {
            Map<String, Object> limits = limits(settings.limits());
            Optional<String> unsupported = Cgroup.unsupported();
            limits.put("applied", unsupported.isEmpty());
            limits.put("note", unsupported.orElse(Cgroup.mechanism() + "; the JVM sees the quota rounded up (ActiveProcessorCount)"));
            m.put("limits", limits);
        }
        return m;
    }

    static Map<String, Object> profile(Profile p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", p.kind());
        if (p instanceof Profile.Stages) {
            List<Map<String, Object>> stages = new ArrayList<>();
            for (Profile.Stage s : ((Profile.Stages) p).stages()) {
                stages.add(Map.of("duration_s", s.duration().toMillis() / 1000.0, "users", s.users()));
            }
            m.put("stages", stages);
        } else if (p instanceof Profile.Fixed) {
            Profile.Fixed f = (Profile.Fixed) p;
            m.put("users", f.users());
            m.put("duration_s", f.duration().toMillis() / 1000.0);
        } else if (p instanceof Profile.Loops) {
            m.put("users", ((Profile.Loops) p).users());
            m.put("requests_per_user", ((Profile.Loops) p).requests());
        } else if (p instanceof Profile.Burst) {
            m.put("users", ((Profile.Burst) p).users());
            m.put("requests_per_user", ((Profile.Burst) p).requests());
        } else if (p instanceof Profile.Rate) {
            Profile.Rate r = (Profile.Rate) p;
            m.put("rps", r.rps());
            m.put("duration_s", r.duration().toMillis() / 1000.0);
            m.put("max_users", r.maxUsers());
        }
        return m;
    }

    private static Map<String, Object> limits(ResourceLimits l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpus", l.cpus() > 0 ? l.cpus() : null);
        m.put("memory_mb", l.memoryBytes() > 0 ? l.memoryBytes() / (1 << 20) : null);
        return m;
    }
}
