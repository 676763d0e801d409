package dev.loomflux.lab.cli;

import dev.loomflux.lab.experiment.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Which scenarios, with the endpoint parameters that apply to the scenarios that take them. */
public final class ScenarioOptions {
    @Option(names = "--scenario", split = ",", paramLabel = "NAME",
            description = "Scenarios: plaintext, json, gateway, chain, items, cpu, mixed, crud (a flow: create, read, update, delete an item), or path:/ANY for any GET path. Default (run): items.")
    List<String> names;

    @Option(names = "--delay", paramLabel = "MS", description = "Downstream delay for gateway and chain. Default: 20.")
    Integer delay;

    @Option(names = "--dist", paramLabel = "D",
            description = "How the downstream's delay is spread: fixed, uniform (0..2x), exponential (mean), lognormal (median, with --p99). Default: fixed.")
    String dist;

    @Option(names = "--p99", paramLabel = "MS", description = "The lognormal delay's 99th percentile (with --dist lognormal).")
    Integer p99;

    @Option(names = "--depth", description = "Calls per chain request. Default: 3.")
    Integer depth;

    @Option(names = "--page", description = "Page for items. Default: 0.")
    Integer page;

    @Option(names = "--size", description = "Rows per items page. Default: 20.")
    Integer size;

    @Option(names = "--work", description = "SHA-256 rounds per cpu request. Default: 1000.")
    Integer work;

    static final List<String> FLAGS = List.of("--scenario", "--delay", "--dist", "--p99", "--depth", "--page", "--size", "--work");

    List<Scenario> select(List<String> defaults) {
        Map<String, Integer> params = new LinkedHashMap<>();
        putIfSet(params, "delay", delay);
        putIfSet(params, "depth", depth);
        putIfSet(params, "page", page);
        putIfSet(params, "size", size);
        putIfSet(params, "work", work);
        putIfSet(params, "p99", p99);
        List<Scenario> list = new ArrayList<>();
        for (String id : names == null ? defaults : names) {
            Scenario s = Scenario.of(id.trim(), params, null, false, "--scenario");
            // --dist and --p99 apply to the scenarios that call the downstream, as --delay does.
            list.add(s.needsDownstream() && (dist != null || p99 != null) ? Scenario.of(id.trim(), params, dist, false, "--dist") : s);
        }
        return list;
    }

    private static void putIfSet(Map<String, Integer> m, String key, Integer v) {
        if (v != null) {
            m.put(key, v);
        }
    }
}
