package dev.loomflux.lab.target;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A system under test: one of the apps plus Spring properties and JVM flags. Built-ins and
 * user-declared overrides (e.g. {@code mvc-10} = {@code mvc} with 10 Tomcat threads) are the same thing.
 */
public record TargetSpec(String name, App app, Map<String, String> properties, List<String> jvmArgs) {
    public TargetSpec {
        properties = Map.copyOf(new LinkedHashMap<>(properties));
        jvmArgs = List.copyOf(jvmArgs);
    }

    /** This target with more properties and flags on top; later values win. */
    public TargetSpec derive(String newName, Map<String, String> moreProperties, List<String> moreJvmArgs) {
        Map<String, String> props = new LinkedHashMap<>(properties);
        props.putAll(moreProperties);
        List<String> flags = new java.util.ArrayList<>(jvmArgs);
        flags.addAll(moreJvmArgs);
        return new TargetSpec(newName, app, props, flags);
    }

    public boolean virtualThreads() {
        return Boolean.parseBoolean(properties.getOrDefault("spring.threads.virtual.enabled", "false"));
    }
}
