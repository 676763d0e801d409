package dev.loomflux.lab.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The file's load driver: {@code driver: NAME}, or a driver with the settings its capabilities take ({@link DriverTraits#settings()}):
 * agents, {@code driver: {NAME: {agents: 2}}} or {@code {agents: [HOST:PORT, ...], keystore: agents.p12}}, or a plan of the
 * user's own, {@code {plan: own-plan.jmx}}; the keystore's and the plan's paths relative to the file.
 */
final class DriverReader {
    private DriverReader() {
    }

    static DriverChoice read(Node driver, Path file, DriverCatalog<?> drivers) {
        if (driver.isMissing()) {
            return DriverChoice.NONE;
        }
        if (!driver.isObject()) {
            return new DriverChoice(named(driver.text(), driver, drivers).name(), driver.where(), null, null);
        }
        Map.Entry<String, Node> one = driver.single();
        Node settings = one.getValue();
        DriverTraits d = named(one.getKey(), settings, drivers);
        if (d.settings().isEmpty()) {
            List<String> takers = drivers.all().stream().filter(t -> !t.settings().isEmpty())
                    .map(t -> t.name() + " takes settings (" + String.join(", ", t.settings()) + ")").toList();
            throw settings.error((takers.isEmpty() ? "no driver takes settings" : "only " + String.join(", ", takers)) + "; write driver: " + d.name());
        }
        settings.only(Set.copyOf(d.settings()));
        Node agents = settings.get("agents");
        String value = agents.isMissing() ? null : agents.isList() ? String.join(",", agents.stringList()) : agents.text();
        Node keystore = settings.get("keystore");
        Path parent = file.toAbsolutePath().getParent();
        Node plan = settings.get("plan");
        return new DriverChoice(d.name(), driver.where(), value, keystore.isMissing() ? null : parent.resolve(keystore.text()).normalize(),
                plan.isMissing() ? null : parent.resolve(plan.text()).normalize());
    }

    private static DriverTraits named(String name, Node where, DriverCatalog<?> drivers) {
        return drivers.named(name, where.where() + ": '" + name + "'");
    }
}
