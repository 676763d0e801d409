package dev.loomflux.lab.cli;

import dev.loomflux.lab.Home;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.DriverTraits.Capability;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.sut.Targets;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "list", mixinStandardHelpOptions = true, description = "Targets, scenarios, profiles and experiment files, one line each.")
public final class ListCommand implements Callable<Integer> {
    /** Each profile with the tool whose load it imitates; loops' is a JMeter thread group, the shape, not the lab's driver. */
    private static final List<String> PROFILES = List.of(
            "fixed: --users N --duration T: N closed-model users for a time (ab -c N -t T)",
            "stages: --stages 15s:50,30s:100,...: k6-style linear ramps of closed-model users",
            "loops: --users N --requests L: N users x L requests, started over 1 s (JMeter)",
            "burst: --users N --requests L: N users started at once x L requests (Gatling)",
            "rate: --rps R --duration T [--max-in-flight M]: open model, constant arrivals (wrk2)");

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        for (TargetSpec t : new Targets().all().values().stream().sorted((a, b) -> a.name().compareTo(b.name())).collect(Collectors.toList())) {
            out.println("target    " + t.name() + ": " + t.runs() + (t.properties().isEmpty() ? "" : " " + t.properties()));
        }
        for (Scenario.Endpoint k : Scenario.Endpoint.values()) {
            if (k == Scenario.Endpoint.PATH) {
                out.println("scenario  path:/ANY: GET any path, e.g. for a bring-your-own app (YAML: - path: /hello)");
                continue;
            }
            if (k == Scenario.Endpoint.PLAN) {
                out.println("scenario  plan: what a " + Drivers.ALL.titles(Capability.OWN_PLANS) + " plan of your own sends (--driver "
                        + Drivers.ALL.names(Capability.OWN_PLANS) + " --plan FILE.jmx)");
                continue;
            }
            if (k == Scenario.Endpoint.FLOW) {
                Scenario crud = Scenario.of("crud", java.util.Map.of(), true, "crud");
                out.println("scenario  crud: a flow: " + String.join(", ", crud.mix().steps().stream().map(s -> s.request()).toList())
                        + " (YAML: - flow: NAME with its steps, experiments/flow-crud.yaml)");
                continue;
            }
            List<String> params = Arrays.stream(k.params()).map(p -> p + "=" + Scenario.DEFAULTS.get(p)).collect(Collectors.toList());
            out.println("scenario  " + k.id() + ": GET /" + k.id() + (params.isEmpty() ? "" : " (" + String.join(", ", params) + ")"));
        }
        PROFILES.forEach(p -> out.println("profile   " + p));
        Home home = Home.detect();
        Presets.list(home).forEach(f -> out.println("preset    " + home.root().relativize(f)));
        out.flush();
        return 0;
    }
}
