package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ListTest {
    @Test
    void listsEveryTargetScenarioProfileAndPresetOnOneLineEach() {
        LabCli run = LabCli.of("list");
        assertEquals(0, run.exitCode(), run.toString());
        for (String line : new String[] {"target    mvc: mvc", "target    mvc-vt: mvc {spring.threads.virtual.enabled=true}",
                "target    webflux: webflux", "target    webflux-vt: mvc {spring.threads.virtual.enabled=true, spring.main.web-application-type=reactive}",
                "scenario  chain: GET /chain (delay=20, depth=3)", "scenario  path:/ANY: GET any path", "scenario  crud: a flow: POST /items, GET /items/${id}, PUT /items/${id}, DELETE /items/${id}", "profile   rate: ", "preset    experiments/example.yaml", "preset    experiments/seed-003-gateway-latency.yaml"}) {
            assertTrue(run.out().contains(line), line + " missing in\n" + run.out());
        }
        assertEquals(4 + 9 + 5, run.out().lines().filter(l -> !l.startsWith("preset")).count(), run.out());
    }
}
