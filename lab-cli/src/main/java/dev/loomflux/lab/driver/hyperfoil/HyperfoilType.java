package dev.loomflux.lab.driver.hyperfoil;

import dev.loomflux.lab.driver.DriverSetup;
import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.driver.LoadDriver;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Hyperfoil as it describes itself: embedded in the lab's JVM, it runs rounds of fixed or rate blocks; no agents, no plans of the user's own. */
public final class HyperfoilType implements DriverType {
    static final String NAME = "hyperfoil";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "Hyperfoil";
    }

    @Override
    public String description() {
        return "embedded in the lab";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.ROUNDS, Capability.RATE_BLOCKS, Capability.OPEN_MODEL);
    }

    @Override
    public LoadDriver create(DriverSetup setup) {
        return new Hyperfoil();
    }

    @Override
    public String configuration(String version, List<List<String>> agentsPerLoad) {
        return "Hyperfoil " + version + ", embedded in the lab";
    }
}
