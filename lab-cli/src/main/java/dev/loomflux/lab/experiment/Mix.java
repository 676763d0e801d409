package dev.loomflux.lab.experiment;

import java.util.List;
import java.util.Objects;

/**
 * The flows of one scenario, each iteration of a user running one of them, chosen by weight: a
 * deterministic function of the seed, the user and the iteration (driver.FlowValues), so every target
 * runs the same flows in the same order. A single flow is a mix of one.
 *
 * @param name the scenario's name in results: the flow's, or the mix's
 * @param seed what every data value and every choice of flow is drawn from
 */
public record Mix(String name, long seed, List<Flow> flows) {
    public Mix {
        Objects.requireNonNull(name, "name");
        flows = List.copyOf(flows);
        if (flows.isEmpty()) {
            throw new IllegalArgumentException("a mix needs a flow: " + name);
        }
    }

    public int totalWeight() {
        return flows.stream().mapToInt(Flow::weight).sum();
    }

    /** Every step of every flow, in order. */
    public List<FlowStep> steps() {
        return flows.stream().flatMap(f -> f.steps().stream()).toList();
    }

    /** The first request, as the scenario's path reads in logs and .hlog headers: {@code POST /items}. */
    public FlowStep first() {
        return flows.get(0).steps().get(0);
    }
}
