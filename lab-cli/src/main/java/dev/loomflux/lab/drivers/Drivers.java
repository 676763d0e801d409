package dev.loomflux.lab.drivers;

import dev.loomflux.lab.driver.DriverType;
import dev.loomflux.lab.driver.hyperfoil.HyperfoilType;
import dev.loomflux.lab.driver.jmeter.JmeterType;
import dev.loomflux.lab.experiment.DriverCatalog;
import java.util.List;

/**
 * The registry: the lab's load drivers, one line each, the default first. A driver describes itself in its own package
 * ({@link DriverType}); adding one is its package and a line here (docs/guide.md, "The code in detail"). It lives apart from
 * {@code driver}, which the drivers it lists import.
 */
public final class Drivers {
    public static final DriverCatalog<DriverType> ALL = new DriverCatalog<>(List.of(
            new HyperfoilType(),
            new JmeterType()));

    private Drivers() {
    }
}
