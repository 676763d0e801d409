package dev.loomflux.lab.sut;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.limits.ResourceLimits;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A system under test: one of the apps plus Spring properties and JVM flags. Built-ins and
 * user-declared overrides (e.g. {@code mvc-10} = {@code mvc} with 10 Tomcat threads) are the same thing.
 * A bring-your-own target has a {@link Command} instead of an app (then {@code app} is null).
 * {@code limits} are this target's own container limits, on top of the experiment's (which every
 * target gets); NONE for most targets.
 */
public record TargetSpec(String name, App app, Map<String, String> properties, List<String> jvmArgs, Command command, ResourceLimits limits) {
    public TargetSpec(String name, App app, Map<String, String> properties, List<String> jvmArgs) {
        this(name, app, properties, jvmArgs, null, ResourceLimits.NONE);
    }

    public static TargetSpec own(String name, Command command, List<String> jvmArgs) {
        return new TargetSpec(name, null, Map.of(), jvmArgs, command, ResourceLimits.NONE);
    }

    public TargetSpec {
        // In the order given (Map.copyOf's order changes from one JVM to the next): lists and results read the same every run.
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        jvmArgs = List.copyOf(jvmArgs);
    }

    /** This target with more properties and flags on top; later values win. */
    public TargetSpec derive(String newName, Map<String, String> moreProperties, List<String> moreJvmArgs) {
        Map<String, String> props = new LinkedHashMap<>(properties);
        props.putAll(moreProperties);
        List<String> flags = new java.util.ArrayList<>(jvmArgs);
        flags.addAll(moreJvmArgs);
        return new TargetSpec(newName, app, props, flags, command, limits);
    }

    public TargetSpec withLimits(ResourceLimits own) {
        return new TargetSpec(name, app, properties, jvmArgs, command, own);
    }

    public boolean virtualThreads() {
        if (command != null) {
            return command.argv().stream().anyMatch(a -> a.endsWith("spring.threads.virtual.enabled=true"));
        }
        return Boolean.parseBoolean(properties.getOrDefault("spring.threads.virtual.enabled", "false"));
    }

    /** Fails with a one-line error before anything starts when a built-in app's jar is missing. */
    public void requireBuilt(Home home) {
        if (app != null) {
            app.jar(home);
        }
    }

    /** What it runs, for lists and results: the app's name or the command's program. */
    public String runs() {
        return app != null ? app.name().toLowerCase() : "command " + command.argv();
    }
}
