package dev.loomflux.lab.compare;

import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * How two runs were measured, where it differs: a change between them may then be the conditions', not the
 * targets'. The same targets measured by JMeter read 4-6% below Hyperfoil (docs/scale-out.md); this VM's speed
 * alone moves 6-10% between sessions (docs/reproducibility.md). What a run did not record is not compared.
 */
public final class Conditions {
    private Conditions() {
    }

    /** One line per difference: what, A's, B's; {@code b} named {@code nameB} ("B", "run 3"). */
    public static List<String> differences(RunRecord a, RunRecord b, String nameB) {
        List<String> out = new ArrayList<>();
        differ(out, nameB, "load driver", a, b, r -> driver(r) + version(r, driver(r)));
        differ(out, nameB, "design", a, b, r -> r.experiment() == null ? null : r.experiment().design() == null ? "sequential" : r.experiment().design().kind());
        differ(out, nameB, "limits", a, b, r -> r.experiment() == null ? null : limits(r.experiment().limits()));
        if (HardwareDifference.hardware(a) == null || HardwareDifference.hardware(b) == null) {
            // With both runs' hardware, HardwareDifference says this and more (the model name and kernel among it).
            differ(out, nameB, "machine", a, b, r -> r.environment() == null ? null : r.environment().cpuModel() + ", " + r.environment().os());
        }
        differ(out, nameB, "targets' JDK", a, b, r -> r.environment() == null || r.environment().jdk() == null ? null : r.environment().jdk().targets());
        differ(out, nameB, "pinning", a, b, r -> r.environment() == null ? null : pinning(r.environment().pinning()));
        return out;
    }

    private static void differ(List<String> out, String nameB, String what, RunRecord a, RunRecord b, Function<RunRecord, String> of) {
        String x = of.apply(a);
        String y = of.apply(b);
        if (x != null && y != null && !Objects.equals(x, y)) {
            out.add(what + ": " + x + " in A, " + y + " in " + nameB);
        }
    }

    /** Results from before the lab had a second driver name none: they ran on the default one (the registry's first). */
    private static String driver(RunRecord r) {
        return r.experiment() == null || r.experiment().driver() == null ? Drivers.ALL.byDefault().name() : r.experiment().driver();
    }

    private static String version(RunRecord r, String driver) {
        String v = r.environment() == null || r.environment().versions() == null ? null : r.environment().versions().get(driver);
        return v == null ? "" : " " + v;
    }

    private static String limits(ExperimentDescription.LimitsDescription l) {
        if (l == null || (l.cpus() == null && l.memoryMb() == null)) {
            return "none";
        }
        return (l.cpus() == null ? "" : l.cpus() + " CPUs") + (l.cpus() != null && l.memoryMb() != null ? ", " : "")
                + (l.memoryMb() == null ? "" : l.memoryMb() + " MB") + (Boolean.FALSE.equals(l.applied()) ? " (not applied)" : "");
    }

    private static String pinning(Environment.Pinning p) {
        if (p == null) {
            return null;
        }
        return p.applied() ? "target CPUs " + p.target() + ", driver " + p.driver() + ", support " + p.support() : "none";
    }
}
