package dev.loomflux.lab.compare;

import dev.loomflux.lab.result.Hardware;
import dev.loomflux.lab.result.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Whether two runs were measured on the same hardware (results.json environment.hardware). Every field counts,
 * stepping and microcode too, as a model name does not tell two CPUs apart: throughput ratios between targets are not the
 * models' alone, they move with the machine (docs/reproducibility.md, "Hardware named in every result"). A file without
 * hardware (older ones: docs/results-schema.md, "Schema history") is unknown, never "different".
 */
public final class HardwareDifference {
    private static final List<Map.Entry<String, Function<Hardware, String>>> FIELDS = List.of(
            Map.entry("vendor", Hardware::vendor), Map.entry("family", Hardware::family), Map.entry("model", Hardware::model),
            Map.entry("stepping", Hardware::stepping), Map.entry("microcode", Hardware::microcode), Map.entry("model name", Hardware::modelName),
            Map.entry("caches", Hardware::cachesDescribed), Map.entry("hypervisor", Hardware::hypervisor), Map.entry("kernel", Hardware::kernel),
            Map.entry("CPU flags hash", Hardware::flagsHash));

    private HardwareDifference() {
    }

    /** Each field that differs, "stepping 2 in A, 3 in B"; a field one machine did not give reads "unknown". */
    static List<String> differences(Hardware a, Hardware b, String nameB) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Function<Hardware, String>> field : FIELDS) {
            String x = field.getValue().apply(a);
            String y = field.getValue().apply(b);
            if (!Objects.equals(x, y)) {
                out.add(field.getKey() + " " + known(x) + " in A, " + known(y) + " in " + nameB);
            }
        }
        return out;
    }

    /**
     * What compare says of A against {@code other}, named {@code name} ("B", "run 3"): "measured on different hardware: stepping 2 in A,
     * 3 in B", "hardware unknown for A (...)", or null when both ran on the same hardware.
     */
    public static String line(RunRecord a, RunRecord other, String name) {
        List<String> unknown = unknown(List.of(a, other), List.of("A", name));
        if (!unknown.isEmpty()) {
            return "hardware unknown for " + String.join(" and ", unknown) + " (results.json before schema 18 names the CPU by its model name only)";
        }
        List<String> d = differences(hardware(a), hardware(other), name);
        return d.isEmpty() ? null : "measured on different hardware: " + String.join("; ", d);
    }

    /**
     * What a line judging reproducibility over {@code runs} (the first is A, then B, run 3, ...) adds: "" when all ran on A's
     * hardware, else which runs were measured on different hardware, and for which it is unknown.
     */
    public static String judged(List<RunRecord> runs) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            names.add(name(i));
        }
        List<String> unknown = unknown(runs, names);
        List<String> differing = new ArrayList<>();
        for (int i = 1; i < runs.size() && hardware(runs.get(0)) != null; i++) {
            if (hardware(runs.get(i)) != null && !differences(hardware(runs.get(0)), hardware(runs.get(i)), names.get(i)).isEmpty()) {
                differing.add(names.get(i));
            }
        }
        String out = differing.isEmpty() ? "" : "; measured on different hardware (" + String.join(", ", differing)
                + " against A): the ratios may have moved with the machine";
        return out + (unknown.isEmpty() ? "" : "; hardware unknown for " + String.join(", ", unknown));
    }

    /** The name compare gives the i-th run it reads: A, B, then run 3, run 4, ... */
    public static String name(int i) {
        return i == 0 ? "A" : i == 1 ? "B" : "run " + (i + 1);
    }

    private static List<String> unknown(List<RunRecord> runs, List<String> names) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            if (hardware(runs.get(i)) == null) {
                out.add(names.get(i));
            }
        }
        return out;
    }

    static Hardware hardware(RunRecord r) {
        return r.environment() == null ? null : r.environment().hardware();
    }

    private static String known(String value) {
        return value == null ? "unknown" : value;
    }
}
