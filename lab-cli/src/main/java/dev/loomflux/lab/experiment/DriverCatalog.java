package dev.loomflux.lab.experiment;

import dev.loomflux.lab.UsageException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The load drivers a run may name, as each describes itself ({@link DriverTraits}), asked by name or by capability; the
 * lab's are the registry's (drivers.Drivers), a test's may be its own. The first is the default.
 *
 * @param <T> what the drivers are besides their traits (the registry's make loads too)
 */
public final class DriverCatalog<T extends DriverTraits> {
    private final List<T> all;

    public DriverCatalog(List<T> all) {
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no drivers");
        }
        this.all = List.copyOf(all);
    }

    public List<T> all() {
        return all;
    }

    /** The driver a run loads with when neither the flags nor the file name one. */
    public T byDefault() {
        return all.get(0);
    }

    /** The driver of this name; null when none is. */
    public T find(String name) {
        return all.stream().filter(d -> d.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * The driver of this name.
     *
     * @param where the flag or file field that named it, for a one-line error
     */
    public T named(String name, String where) {
        T d = find(name);
        if (d == null) {
            throw new UsageException(where + ": expected " + names());
        }
        return d;
    }

    /** Every driver's name, "hyperfoil or jmeter", for errors and help. */
    public String names() {
        return all.stream().map(DriverTraits::name).collect(Collectors.joining(" or "));
    }

    /** The drivers that can, in the catalog's order. */
    public List<T> with(DriverTraits.Capability c) {
        return all.stream().filter(d -> d.can(c)).toList();
    }

    /** The drivers that can, by title: "Hyperfoil", "Hyperfoil or JMeter". */
    public String titles(DriverTraits.Capability c) {
        return with(c).stream().map(DriverTraits::title).collect(Collectors.joining(" or "));
    }

    /** The drivers that can, by name: "jmeter". */
    public String names(DriverTraits.Capability c) {
        return with(c).stream().map(DriverTraits::name).collect(Collectors.joining(" or "));
    }

    /** The drivers that time requests finer than in steps of {@code stepMs}, as advice names them: "Hyperfoil (--driver hyperfoil)"; null when none does. */
    public String finerThan(double stepMs) {
        List<T> finer = all.stream().filter(d -> d.latencyStepMs() < stepMs).toList();
        return finer.isEmpty() ? null : finer.stream().map(d -> d.title() + " (--driver " + d.name() + ")").collect(Collectors.joining(" or "));
    }

    /**
     * Why the named driver cannot run the paired design's interleaved rounds, as the run log ends "interleaved rounds need ...":
     * one without rounds, or, when the profile is a rate, one without rate blocks; null when it can, or when no driver has the name
     * (the driver's choice then refuses it).
     *
     * @param rate whether the profile is a rate, whose blocks are rates too
     */
    public String roundsObstacle(String name, boolean rate) {
        T d = find(name);
        if (d == null) {
            return null;
        }
        if (!d.can(DriverTraits.Capability.ROUNDS)) {
            return "the " + titles(DriverTraits.Capability.ROUNDS) + " driver";
        }
        return rate && !d.can(DriverTraits.Capability.RATE_BLOCKS) ? "the " + titles(DriverTraits.Capability.RATE_BLOCKS) + " driver for rate blocks" : null;
    }
}
