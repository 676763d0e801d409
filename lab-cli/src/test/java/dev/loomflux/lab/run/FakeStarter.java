package dev.loomflux.lab.run;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.driver.LoadDriver;
import dev.loomflux.lab.procedure.TargetVisit;
import dev.loomflux.lab.sut.TargetSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Starts {@link FakeJvm}s, each a second, third ... JVM of its target and repeat when one before it died; some targets refuse to start. */
final class FakeStarter implements TargetStarter {
    private final List<String> events;
    private final LoadDriver driver;
    private final Map<String, List<FakeJvm>> started = new ConcurrentHashMap<>();
    private final Set<String> refused;

    /**
     * @param driver  the run's driver, cancelled when a JVM dies (as the real starter's hook does)
     * @param refused targets that do not start
     */
    FakeStarter(List<String> events, LoadDriver driver, Set<String> refused) {
        this.events = events;
        this.driver = driver;
        this.refused = refused;
    }

    @Override
    public TargetVisit alone(TargetSpec spec, int repeat) {
        return start(spec, repeat, "alone");
    }

    @Override
    public TargetVisit beside(TargetSpec spec, int set) {
        return start(spec, set, "beside");
    }

    /** The latest JVM started of a target and repeat (or set). */
    FakeJvm jvm(String target, int repeat) {
        List<FakeJvm> jvms = started.get(target + "#" + repeat);
        return jvms.get(jvms.size() - 1);
    }

    private TargetVisit start(TargetSpec spec, int repeat, String how) {
        String key = spec.name() + "#" + repeat;
        if (refused.contains(spec.name())) {
            events.add("refused " + key);
            throw new LabException(spec.name() + " not ready after 3 s");
        }
        List<FakeJvm> jvms = started.computeIfAbsent(key, k -> new ArrayList<>());
        FakeJvm jvm;
        synchronized (jvms) {
            jvm = new FakeJvm(spec, repeat, how.equals("beside"), jvms.isEmpty() ? key : key + " (JVM " + (jvms.size() + 1) + ")", events, driver::cancel);
            jvms.add(jvm);
        }
        events.add("start " + jvm.name() + " " + how);
        return jvm;
    }
}
