package dev.loomflux.lab.sut;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.targets.HttpClientLibrary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The known targets: the built-ins plus whatever the user declared, looked up by name. */
public final class Targets {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,39}");

    private final Map<String, TargetSpec> byName = new LinkedHashMap<>();

    public Targets() {
        add(new TargetSpec("mvc", App.MVC, Map.of(), List.of()));
        add(new TargetSpec("mvc-vt", App.MVC, Map.of("spring.threads.virtual.enabled", "true"), List.of()));
        add(new TargetSpec("webflux", App.WEBFLUX, Map.of(), List.of()));
        // mvc-vt's blocking controllers on WebFlux and Reactor Netty, still on virtual threads: the peer
        // loom-webflux-benchmarks' "loom-netty".
        add(byName.get("mvc-vt").derive("webflux-vt", Map.of("spring.main.web-application-type", "reactive"), List.of()));
    }

    private void add(TargetSpec spec) {
        byName.put(spec.name(), spec);
    }

    public Map<String, TargetSpec> all() {
        return Map.copyOf(byName);
    }

    /** Declares a target on top of a known one. */
    public TargetSpec define(String name, String base, Map<String, String> properties, List<String> jvmArgs, String where) {
        return define(name, base, properties, jvmArgs, ResourceLimits.NONE, where);
    }

    /** @param limits this target's own container limits, on top of the base's */
    public TargetSpec define(String name, String base, Map<String, String> properties, List<String> jvmArgs, ResourceLimits limits, String where) {
        checkNewName(name, where);
        TargetSpec from = get(base, where);
        TargetSpec spec = from.derive(name, properties, jvmArgs).withLimits(limits.over(from.limits()));
        checkClient(spec, where);
        add(spec);
        return spec;
    }

    /** The target would otherwise refuse to start, after the database and the stub were up. */
    private static void checkClient(TargetSpec spec, String where) {
        String wanted = spec.properties().get(HttpClientLibrary.PROPERTY);
        if (wanted == null || spec.app() == null) {
            return;
        }
        List<String> offered = spec.app().clients().stream().map(HttpClientLibrary::id).toList();
        if (!offered.contains(wanted)) {
            throw new UsageException(where + ": " + HttpClientLibrary.PROPERTY + " '" + wanted + "' is not a client the "
                    + spec.runs() + " app offers (" + String.join(", ", offered) + ")");
        }
    }

    /** Adds a target declared elsewhere, e.g. an experiment file's, under its own name; a built-in the file names is already known. */
    public TargetSpec declare(TargetSpec spec, String where) {
        if (spec.equals(byName.get(spec.name()))) {
            return spec;
        }
        checkNewName(spec.name(), where);
        add(spec);
        return spec;
    }

    /** Declares a bring-your-own target: any command. */
    public TargetSpec own(String name, Command command, List<String> jvmArgs, ResourceLimits limits, String where) {
        checkNewName(name, where);
        TargetSpec spec = TargetSpec.own(name, command, jvmArgs).withLimits(limits);
        add(spec);
        return spec;
    }

    private void checkNewName(String name, String where) {
        if (!NAME.matcher(name).matches()) {
            throw new UsageException(where + ": target name '" + name + "' must be lowercase letters, digits, '.', '_' or '-' (max 40)");
        }
        if (byName.containsKey(name)) {
            throw new UsageException(where + ": target '" + name + "' is already defined");
        }
    }

    /**
     * Parses {@code NAME=BASE[,key=value...][,-JVMFLAG...]}, e.g.
     * {@code mvc-10=mvc,server.tomcat.threads.max=10,-XX:+UseZGC}.
     */
    public TargetSpec define(String definition) {
        String where = "--define " + definition;
        int eq = definition.indexOf('=');
        if (eq <= 0) {
            throw new UsageException(where + ": expected NAME=BASE[,key=value...][,-JVMFLAG...]");
        }
        String name = definition.substring(0, eq).trim();
        String[] parts = definition.substring(eq + 1).split(",");
        Map<String, String> props = new LinkedHashMap<>();
        List<String> flags = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].trim();
            if (part.startsWith("-")) {
                flags.add(part);
            } else if (part.indexOf('=') > 0) {
                props.put(part.substring(0, part.indexOf('=')).trim(), part.substring(part.indexOf('=') + 1).trim());
            } else {
                throw new UsageException(where + ": '" + part + "' is neither key=value nor a JVM flag starting with '-'");
            }
        }
        return define(name, parts[0].trim(), props, flags, where);
    }

    public TargetSpec get(String name, String where) {
        TargetSpec spec = byName.get(name);
        if (spec == null) {
            throw new UsageException(where + ": unknown target '" + name + "' (known: " + String.join(", ", byName.keySet()) + ")");
        }
        return spec;
    }

    public List<TargetSpec> select(List<String> names, String where) {
        if (names.isEmpty()) {
            throw new UsageException(where + ": name at least one target");
        }
        List<TargetSpec> out = new ArrayList<>();
        for (String n : names) {
            TargetSpec spec = get(n.trim(), where);
            if (out.contains(spec)) {
                throw new UsageException(where + ": target '" + n + "' is listed twice");
            }
            out.add(spec);
        }
        return out;
    }
}
