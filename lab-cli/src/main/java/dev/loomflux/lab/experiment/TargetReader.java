package dev.loomflux.lab.experiment;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.sut.Command;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.sut.Targets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** An experiment file's targets: built-in or declared ones, command targets with the file's params, and resource limits. */
final class TargetReader {
    private TargetReader() {
    }

    /**
     * {@code limits: {cpus: 0.5, memory: 1g}}, as docker run's --cpus and --memory: at the top for
     * every target, or in a target's entry for that target alone (over the top's, field by field).
     */
    static ResourceLimits limits(Node node) {
        if (node.isMissing()) {
            return ResourceLimits.NONE;
        }
        node.only(Set.of("cpus", "memory"));
        Node cpus = node.get("cpus");
        Node memory = node.get("memory");
        long bytes = memory.isMissing() ? 0 : ResourceLimits.parseMemory(memory.text(), memory.where());
        if (!memory.isMissing() && bytes < ResourceLimits.MIN_MEMORY) {
            throw memory.error("expected at least 16m, got '" + memory.text() + "'");
        }
        return new ResourceLimits(cpus.isMissing() ? 0 : cpus.positive(1024), bytes);
    }

    /**
     * The values of the file's parameters: {@code params: {NAME: {hint: how to get a value, file: true}}}, each given as
     * {@code --param NAME=VALUE} and put in for {@code {NAME}} in the command targets' argv. A missing one is refused
     * with its hint (how to build the jar it names, say), as is a {@code file: true} one that names no file.
     */
    static Map<String, String> params(Node node, Map<String, String> given) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> declared = node.isMissing() ? List.of() : node.keys();
        for (String name : given.keySet()) {
            if (!declared.contains(name)) {
                throw new UsageException("--param " + name + ": " + node.where() + " declares " + (declared.isEmpty() ? "no params" : "only " + String.join(", ", declared)));
            }
        }
        for (String name : declared) {
            Node p = node.get(name).only(Set.of("hint", "file"));
            String hint = p.get("hint").text("");
            String value = given.get(name);
            if (value == null || value.isBlank()) {
                throw p.error("give --param " + name + "=VALUE" + (hint.isEmpty() ? "" : "; " + hint));
            }
            if (p.get("file").text("false").equals("true")) {
                if (!Files.isRegularFile(Path.of(value))) {
                    throw new UsageException("--param " + name + "=" + value + ": no such file" + (hint.isEmpty() ? "" : "; " + hint));
                }
                value = Path.of(value).toAbsolutePath().normalize().toString(); // the target may start in another directory
            }
            out.put(name, value);
        }
        return out;
    }

    static List<TargetSpec> targets(Node node, Map<String, String> params) {
        Targets known = new Targets();
        List<String> names = new ArrayList<>();
        for (Node t : node.list()) {
            if (t.isText()) {
                names.add(t.text());
                continue;
            }
            t.only(Set.of("name", "base", "properties", "jvm-args", "limits", "command", "ready", "ready-timeout", "port"));
            String name = t.get("name").text();
            if (t.get("command").isMissing()) {
                known.define(name, t.get("base").text(), t.get("properties").stringMap(), t.get("jvm-args").stringList(), limits(t.get("limits")), t.where());
            } else {
                known.own(name, command(t, params), t.get("jvm-args").stringList(), limits(t.get("limits")), t.where());
            }
            names.add(name);
        }
        return known.select(names, node.where());
    }

    private static Command command(Node t, Map<String, String> params) {
        for (String notHere : List.of("base", "properties")) {
            if (!t.get(notHere).isMissing()) {
                throw t.get(notHere).error("a command target takes no " + notHere + ": put arguments in its command");
            }
        }
        List<String> argv = t.get("command").stringList();
        if (argv.isEmpty() || argv.get(0).isBlank()) {
            throw t.get("command").error("expected the program and its arguments as a list, e.g. [\"{java}\", -jar, app.jar, \"--server.port={port}\"]");
        }
        String ready = t.get("ready").text();
        if (!ready.startsWith("/") && !ready.startsWith("http://")) {
            throw t.get("ready").error("expected a path such as /actuator/health or an http:// URL, got '" + ready + "'");
        }
        Node timeout = t.get("ready-timeout");
        Duration readyTimeout = timeout.duration(Command.READY_TIMEOUT);
        if (readyTimeout.toMillis() < 1000 || readyTimeout.toMinutes() > 60) {
            throw timeout.error("expected 1s to 60m, got '" + timeout.text() + "'");
        }
        return new Command(argv, ready, t.get("port").integer(1, 65535, 0), readyTimeout).with(params);
    }
}
