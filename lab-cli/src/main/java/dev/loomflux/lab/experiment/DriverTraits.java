package dev.loomflux.lab.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A load driver as it describes itself to an experiment: its name, what it can run, the settings an experiment file may
 * give it. Each driver describes itself in its own package (with its factory, driver.DriverType), the registry
 * (drivers.Drivers) lists them, and the YAML reader, the CLI, the report and compare ask by capability, never by name
 * (docs/guide.md, "The code in detail").
 */
public interface DriverTraits {
    /** What a driver can run, besides a fixed number of users in one load, which every driver runs. */
    enum Capability {
        /** The paired design's interleaved rounds of fixed blocks. */
        ROUNDS,
        /** Rounds whose blocks are a rate: its arrivals wait at each target's gate without leaving their schedule. */
        RATE_BLOCKS,
        /** The open model: a rate profile, arrivals whatever the responses. */
        OPEN_MODEL,
        /** Each load on agents, users and rates split over them: settings {@code agents} and {@code keystore}. */
        AGENTS,
        /** A plan of the user's own in place of a scenario: setting {@code plan}. */
        OWN_PLANS
    }

    /** As --driver, an experiment file's {@code driver} and results.json name it: lower case, e.g. {@code hyperfoil}. */
    String name();

    /** As a sentence names it, e.g. {@code Hyperfoil}. */
    String title();

    /** One line for --help: how the lab runs it, e.g. "embedded in the lab". */
    String description();

    Set<Capability> capabilities();

    /** The step in which it times requests, in ms, where that is coarse enough to matter to a comparison; 0 otherwise. */
    default double latencyStepMs() {
        return 0;
    }

    default boolean can(Capability c) {
        return capabilities().contains(c);
    }

    /** The keys an experiment file may give it under {@code driver: {NAME: {...}}}, by its capabilities; none for most. */
    default List<String> settings() {
        List<String> out = new ArrayList<>();
        if (can(Capability.AGENTS)) {
            out.addAll(List.of("agents", "keystore"));
        }
        if (can(Capability.OWN_PLANS)) {
            out.add("plan");
        }
        return out;
    }
}
