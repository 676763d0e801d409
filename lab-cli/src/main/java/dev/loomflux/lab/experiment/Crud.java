package dev.loomflux.lab.experiment;

import java.util.List;
import java.util.Map;

/**
 * The built-in {@code crud} flow over the targets' items API: create an item, read it back, update it,
 * delete it. Each user's iteration works on the item it created, by the id the create answered with, so
 * no two users write the same row. The same flow written in YAML is experiments/flow-crud.yaml.
 */
final class Crud {
    static final String NAME = "crud";

    private Crud() {
    }

    static Mix mix() {
        Map<String, String> json = Map.of("Content-Type", "application/json");
        List<FlowStep> steps = List.of(
                new FlowStep("create", FlowStep.Method.POST, "/items", json, "{\"name\": \"item-${n}\", \"priceCents\": ${price}}", null,
                        new FlowStep.Expect(201, 201), List.of(new FlowStep.Extract("id", FlowStep.Extract.Source.JSON, "$.id")), Think.NONE),
                new FlowStep("read", FlowStep.Method.GET, "/items/${id}", Map.of(), null, null, new FlowStep.Expect(200, 200), List.of(), Think.NONE),
                new FlowStep("update", FlowStep.Method.PUT, "/items/${id}", json, "{\"name\": \"item-${n}-updated\", \"priceCents\": ${price}}", null,
                        new FlowStep.Expect(200, 200), List.of(), Think.NONE),
                new FlowStep("delete", FlowStep.Method.DELETE, "/items/${id}", Map.of(), null, null, new FlowStep.Expect(204, 204), List.of(), Think.NONE));
        Map<String, FlowData> data = new java.util.LinkedHashMap<>();
        data.put("price", new FlowData.Uniform(100, 10_000));
        data.put("n", new FlowData.Unique());
        return new Mix(NAME, FlowReader.DEFAULT_SEED, List.of(new Flow(NAME, 1, steps, data, null)));
    }
}
