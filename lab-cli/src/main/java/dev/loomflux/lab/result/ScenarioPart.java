package dev.loomflux.lab.result;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a comparison or a verdict is about within a scenario (docs/statistics.md, "Flows and their steps"): the scenario's
 * requests together, one flow's whole iterations, or one step's requests. A scenario of one flow is that flow: its
 * comparisons are of the flow's iterations, then of each step. A mix of flows is its requests together, then each flow,
 * then each flow's steps.
 *
 * @param flow    the flow, or null for the scenario's requests together
 * @param step    the step of the flow, or null for the flow's whole iterations
 * @param request a step's request as it reads: {@code POST /items}; null for a flow or the whole
 */
public record ScenarioPart(String flow, String step, String request) {
    /** The scenario's requests together, as for every scenario that is not a flow. */
    public static final ScenarioPart WHOLE = new ScenarioPart(null, null, null);

    /** Not a field of results.json, where a comparison's part is written flat. */
    @JsonIgnore
    public boolean isWhole() {
        return flow == null && step == null;
    }

    /**
     * Where in results.json and in the report: {@code crud} for the scenario (a single flow's name is the scenario's),
     * {@code crud/create} for its step, and in a mix {@code shop/browse} and {@code shop/browse/list}.
     */
    public String where(String scenario) {
        return scenario + (flow != null && !flow.equals(scenario) ? "/" + flow : "") + (step != null ? "/" + step : "");
    }

    /** Whether it stands for the whole scenario: its requests together, or the flow that is all of it. */
    public boolean standsForScenario(String scenario) {
        return step == null && (flow == null || flow.equals(scenario));
    }

    /** What a sentence names before the metric: {@code POST /items} for a step, {@code crud flow} for a flow, null for the whole. */
    public String subject() {
        return step != null ? request : flow != null ? flow + " flow" : null;
    }

    /**
     * The parts of a scenario with these flows, in order: a single flow, then its steps; a mix, then each flow and its steps.
     * No flows: the whole alone.
     *
     * @param flows each flow's steps by name, each with its request
     */
    public static List<ScenarioPart> of(Map<String, Map<String, String>> flows) {
        List<ScenarioPart> out = new ArrayList<>();
        if (flows.size() != 1) {
            out.add(WHOLE);
        }
        flows.forEach((flow, steps) -> {
            out.add(new ScenarioPart(flow, null, null));
            steps.forEach((step, request) -> out.add(new ScenarioPart(flow, step, request)));
        });
        return out;
    }

    /** The parts of a scenario from its results' flows: those of the first result that has any. */
    public static List<ScenarioPart> ofResults(List<Result> results) {
        Map<String, Map<String, String>> flows = new LinkedHashMap<>();
        results.stream().filter(r -> r.load().flows() != null && !r.load().flows().isEmpty()).findFirst().ifPresent(r -> r.load().flows().forEach(f -> {
            Map<String, String> steps = new LinkedHashMap<>();
            f.steps().forEach(s -> steps.put(s.step(), s.request()));
            flows.put(f.flow(), steps);
        }));
        return of(flows);
    }
}
