package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.DriverCatalog;
import dev.loomflux.lab.result.DriverCheck;
import dev.loomflux.lab.result.Environment;
import dev.loomflux.lab.result.ExperimentDescription;
import dev.loomflux.lab.result.Hardware;
import dev.loomflux.lab.result.Json;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.targets.TargetConfig;
import java.util.ArrayList;
import java.util.List;

/** How the run was set up, in words: the test configuration, and each target's settings as it reported them (config parity). */
final class Configuration {
    private Configuration() {
    }

    static Table of(RunRecord root) {
        return of(root, Drivers.ALL);
    }

    /** @param drivers the drivers that describe themselves in the row: the registry's, or a test's */
    static Table of(RunRecord root, DriverCatalog<? extends DriverType> drivers) {
        Environment env = root.environment();
        ExperimentDescription exp = root.experiment();
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("run", root.header().runId() + " (" + root.header().status() + ")"));
        rows.add(List.of("started / finished", root.header().startedAt() + " / " + root.header().finishedAt()));
        rows.add(List.of("experiment", exp.name()));
        rows.add(List.of("targets", String.join(", ", exp.targets().stream()
                .map(t -> t.name() + (t.limits() != null ? " (own limits: " + readable(Json.tree(t.limits())) + ")" : "")).toList())));
        rows.add(List.of("profile", readable(Json.tree(exp.profile()))));
        rows.add(List.of("warmup / cooldown / " + (exp.paired() ? "sets" : "repeat"), Cells.num(exp.warmupS()) + " s / " + Cells.num(exp.cooldownS()) + " s / "
                + root.jvmsPerTarget()));
        if (exp.design() != null) {
            rows.add(List.of("design", "paired".equals(exp.design().kind())
                    ? "paired: " + (Boolean.FALSE.equals(exp.design().fixedRounds()) ? "up to " : "") + exp.design().rounds() + " rounds of " + Cells.blocks(exp) + " per target"
                    + (exp.design().leadInS() == null || Cells.wholeShapes(exp) ? "" : " (each after " + Cells.num(exp.design().leadInS()) + " s of unmeasured load)") + " after "
                    + exp.design().leadInRounds() + " lead-in round" + (Cells.wholeShapes(exp) ? "" : " (the profile's duration is not used)")
                    + (exp.design().budgetS() == null ? "" : ", within " + Cells.num(exp.design().budgetS()) + " s for the whole run")
                    + (Boolean.TRUE.equals(exp.design().freshJvms()) ? ", a fresh JVM of each target for each of its blocks after its first (--fresh-jvms)" : "")
                    : "sequential"));
        }
        if (exp.driver() != null) {
            rows.add(List.of("load driver", driver(root, drivers)));
        }
        rows.add(List.of("JVM flags (every target)", String.join(" ", exp.jvmFlags())));
        if (exp.limits() != null) {
            // cpus and memory are every target's (absent when only some targets have their own, shown with the targets).
            rows.add(List.of("limits", readable(Json.tree(exp.limits()))));
        }
        rows.add(List.of("machine", env.os() + ", " + env.cpus() + " CPUs (" + env.cpuModel() + "), " + env.memoryMb() + " MB"));
        rows.add(List.of("hardware", hardware(env.hardware())));
        rows.add(List.of("pinning", readable(Json.tree(env.pinning()))));
        rows.add(List.of("JDK", "targets " + env.jdk().targets() + ", lab " + env.jdk().lab()));
        rows.add(List.of("database", env.database() == null ? "-" : env.database()));
        rows.add(List.of("versions", readable(Json.tree(env.versions()))));
        rows.add(List.of("git commit", env.gitCommit() + (Boolean.TRUE.equals(env.gitDirty()) ? " (uncommitted changes)" : "")));
        return new Table("", List.of("setting", "value"), rows);
    }

    /** The driver as it describes itself ({@link DriverType#configuration}); one the registry does not know, by its name and version. */
    private static String driver(RunRecord root, DriverCatalog<? extends DriverType> drivers) {
        String name = root.experiment().driver();
        String version = root.environment().versions().getOrDefault(name, "");
        List<List<String>> perLoad = root.results().stream().filter(r -> r.checks().driver() != null && r.checks().driver().agents() != null)
                .map(r -> r.checks().driver().agents().stream().map(DriverCheck.Agent::agent).toList()).toList();
        DriverType type = drivers.find(name);
        return type == null ? name + " " + version : type.configuration(version, perLoad);
    }

    /**
     * The CPU in full, the fields two runs must share to be compared as runs of one machine (compare/HardwareDifference):
     * "GenuineIntel family 6 model 207 stepping 2, microcode 0x1, caches L1d 48K, L1i 32K, L2 2048K, hypervisor kvm, ...".
     * A field the machine did not give is left out.
     */
    private static String hardware(Hardware h) {
        if (h == null) {
            return "not recorded (results.json before schema 18 names the CPU by its model name only)";
        }
        List<String> cpu = new ArrayList<>();
        named(cpu, "", h.vendor());
        named(cpu, "family ", h.family());
        named(cpu, "model ", h.model());
        named(cpu, "stepping ", h.stepping());
        List<String> parts = new ArrayList<>();
        named(parts, "", cpu.isEmpty() ? null : String.join(" ", cpu));
        named(parts, "microcode ", h.microcode());
        named(parts, "caches ", h.cachesDescribed());
        named(parts, "hypervisor ", h.hypervisor());
        named(parts, "kernel ", h.kernel());
        named(parts, "CPU flags hash ", h.flagsHash());
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }

    private static void named(List<String> parts, String name, String value) {
        if (value != null) {
            parts.add(name + value);
        }
    }

    /** An object as "key value, key value" (nested objects in parentheses), for a table cell a person reads. */
    private static String readable(JsonNode node) {
        if (node.isObject()) {
            List<String> parts = new ArrayList<>();
            node.fields().forEachRemaining(e -> {
                if (e.getValue().isNull()) {
                    return; // not set, e.g. a limit that only some targets have
                }
                String key = e.getKey();
                String unit = key.endsWith("_ms") ? " ms" : key.endsWith("_s") ? " s" : "";
                key = key.substring(0, key.length() - unit.length()).replace('_', ' ');
                JsonNode value = e.getValue();
                parts.add(key + " " + (value.isContainerNode() ? "(" + readable(value) + ")" : readable(value) + unit));
            });
            return String.join(", ", parts);
        }
        if (node.isArray()) {
            List<String> parts = new ArrayList<>();
            node.forEach(n -> parts.add(readable(n)));
            return String.join(", ", parts);
        }
        if (node.isBoolean()) {
            return node.asBoolean() ? "yes" : "no";
        }
        return node.isNumber() ? Cells.num(node.numberValue()) : node.asText();
    }

    static Table parity(RunRecord root) {
        List<List<String>> rows = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (Result r : root.results()) {
            String target = r.target();
            if (seen.contains(target) || !r.ok()) {
                continue;
            }
            seen.add(target);
            TargetConfig c = r.visit().targetConfig();
            TargetConfig.Server server = c == null ? null : c.server();
            String threads = server == null ? "-" : server.eventLoops() != null ? server.eventLoops() + " event loops"
                    : server.threadsMax() != null ? server.threadsMax() + " max threads" : "-";
            TargetConfig.HttpClientPool http = c == null ? null : c.httpClient();
            TargetConfig.DbPool db = c == null ? null : c.dbPool();
            TargetConfig.Jvm jvm = c == null ? null : c.jvm();
            rows.add(List.of(target, server == null ? "-" : server.engine(), threads, server == null ? "-" : String.valueOf(server.virtualThreads()),
                    http == null ? "-" : http.library() + " " + http.maxConnections(), db == null ? "-" : db.library() + " " + db.maxSize(),
                    jvm == null ? "-" : String.valueOf(jvm.heapMaxMb()),
                    (r.visit().targetCpus() == null ? "-" : r.visit().targetCpus()) + " (JVM sees " + (jvm == null ? "?" : jvm.availableProcessors()) + ")",
                    jvm == null ? "-" : jvm.jdk()));
        }
        return new Table("", List.of("target", "server", "threads / loops", "virtual threads", "HTTP client pool", "DB pool", "heap MB", "CPUs",
                "JDK"), rows);
    }}
