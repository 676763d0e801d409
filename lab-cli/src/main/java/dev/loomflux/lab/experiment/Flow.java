package dev.loomflux.lab.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A named sequence of steps a user runs from the first to the last, then starts over: one iteration.
 * A step that fails ends the iteration, and the user's next iteration starts over from the first step.
 * A flow is a scenario (alone, or weighted with others in a {@link Mix}).
 *
 * @param weight its share of the iterations in a mix, relative to the other flows' weights
 * @param data   the variables each iteration starts with, in the order written
 * @param csv    the rows the {@link FlowData.Column} variables read; null when none does
 */
public record Flow(String name, int weight, List<FlowStep> steps, Map<String, FlowData> data, FlowCsv csv) {
    public static final int MAX_WEIGHT = 1_000_000;

    public Flow {
        Objects.requireNonNull(name, "name");
        steps = List.copyOf(steps);
        data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a flow needs a step: " + name);
        }
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight " + weight);
        }
    }

    /** Every variable a step of this flow can use: its data, then what the steps extract. */
    public Set<String> variables() {
        Set<String> out = new LinkedHashSet<>(data.keySet());
        steps.forEach(s -> s.extract().forEach(x -> out.add(x.var())));
        return out;
    }
}
