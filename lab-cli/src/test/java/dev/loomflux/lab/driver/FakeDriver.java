package dev.loomflux.lab.driver;

import dev.loomflux.lab.driver.hyperfoil.HyperfoilType;
import dev.loomflux.lab.experiment.DriverCatalog;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A driver added as docs/guide.md ("The code in detail") says: its own type beside its own LoadDriver, and one line in a
 * catalog ({@link #CATALOG}, the registry's with it added). It runs nothing: the tests see the CLI, the reader and the
 * report treat it by what it says of itself. It runs rounds and agents, not rates, nor plans of the user's own.
 */
public final class FakeDriver implements LoadDriver {
    /** The registry's first driver, and the fake. */
    public static final DriverCatalog<DriverType> CATALOG = new DriverCatalog<>(List.of(
            new HyperfoilType(),
            new Type()));

    /** What the CLI made it with. */
    public final DriverSetup setup;

    FakeDriver(DriverSetup setup) {
        this.setup = setup;
    }

    public static final class Type implements DriverType {
        @Override
        public String name() {
            return "fake";
        }

        @Override
        public String title() {
            return "Fake";
        }

        @Override
        public String description() {
            return "a test's own";
        }

        @Override
        public Set<Capability> capabilities() {
            return EnumSet.of(Capability.ROUNDS, Capability.AGENTS);
        }

        @Override
        public LoadDriver create(DriverSetup setup) {
            return new FakeDriver(setup);
        }

        @Override
        public String configuration(String version, List<List<String>> agentsPerLoad) {
            return "Fake " + version + ", " + description();
        }
    }

    @Override
    public DriverType type() {
        return new Type();
    }

    @Override
    public Measurement run(LoadSpec spec, SecondListener listener, BooleanSupplier enough, MeasuredWindow window) {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<Block> run(Rounds rounds, Rounds.Listener listener) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void cancel() {
    }

    @Override
    public Plan export(LoadSpec spec, String name) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Plan export(Rounds rounds, String name) {
        throw new UnsupportedOperationException();
    }
}
