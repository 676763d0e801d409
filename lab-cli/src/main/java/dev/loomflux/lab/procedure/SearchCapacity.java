package dev.loomflux.lab.procedure;

import dev.loomflux.lab.capacity.CapacityPlan;
import dev.loomflux.lab.capacity.CapacitySearch;
import dev.loomflux.lab.capacity.CapacitySummary;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Profile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.process.Reaper;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.target.RunningTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * ./lab capacity: per target x scenario (x repeat, each in a fresh JVM), doubling then bisection
 * over open-model rates until the highest one that meets the SLO; every step is a result, each
 * search a "capacity" entry, and with several searches their median (capacity_summary).
 */
public final class SearchCapacity implements Procedure {
    private final Experiment experiment;
    private final CapacityPlan plan;
    private final Measurer measurer;
    private final ResultsFile results;
    private final Log log;
    private final List<Map<String, Object>> capacities = new ArrayList<>();
    private List<Map<String, Object>> summary = List.of();

    public SearchCapacity(Experiment experiment, CapacityPlan plan, Measurer measurer, ResultsFile results, Log log) {
        this.experiment = experiment;
        this.plan = plan;
        this.measurer = measurer;
        this.results = results;
        this.log = log;
    }

    @Override
    public void run(TargetVisit visit, Scenario scenario) {
        RunningTarget target = visit.target();
        String name = target.spec().name();
        List<Map<String, Object>> steps = new ArrayList<>();
        CapacitySearch.Outcome outcome = CapacitySearch.search(plan.startRps(), plan.maxRps(), plan.resolution(), plan.maxSteps(), rps -> {
            if (Reaper.stopping() || !target.process().isAlive()) {
                return false;
            }
            Map<String, Object> r = capacityStep(visit, scenario, rps, steps);
            // A miss is measured once more before it counts, unless the driver fell behind (an overload is no accident):
            // a single miss here ended searches below the knee, by a p99 that jumped by half for one step (CI: mvc-10 at
            // 75 rps, 161 ms against 105-124 ms around it) or by a JIT still compiling steps later at a low rate.
            if (!Boolean.TRUE.equals(r.get("slo_met")) && !Boolean.TRUE.equals(r.get("behind_schedule")) && !Reaper.stopping()
                    && target.process().isAlive()) {
                log.line(name + " " + scenario.name() + ": measuring " + rps + " rps again before counting the miss");
                r = capacityStep(visit, scenario, rps, steps);
            }
            return Boolean.TRUE.equals(r.get("slo_met"));
        });
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("target", name);
        c.put("scenario", scenario.name());
        c.put("repeat", visit.repeat());
        c.put("slo", plan.slo().toString());
        c.put("capacity_rps", outcome.capacity());
        c.put("reached_max", outcome.reachedMax());
        c.put("steps", steps.stream().map(SearchCapacity::capacityPoint).toList());
        capacities.add(c);
        results.put("capacity", List.copyOf(capacities));
    }

    /** One measured rate of a capacity search, recorded as a result and as the search's next step. */
    private Map<String, Object> capacityStep(TargetVisit visit, Scenario scenario, int rps, List<Map<String, Object>> steps) {
        RunningTarget target = visit.target();
        int repeat = visit.repeat();
        int k = steps.size() + 1;
        Profile.Rate profile = new Profile.Rate(rps, plan.stepDuration(), plan.inFlight(rps));
        String suffix = (experiment.repeat() > 1 ? ".r" + repeat : "") + ".step" + k;
        Map<String, Object> r = measurer.measure(target, scenario,
                new Measurer.Load(profile, k == 1 ? experiment.warmup() : plan.stepWarmup(), k == 1, suffix), visit.before());
        List<String> misses = new ArrayList<>(plan.slo().misses(r));
        if (!RepeatSummary.steady(r)) {
            // Its percentiles may still be moving: a step that is not steady cannot show that the target meets the SLO.
            misses.add("not steady");
        }
        r.put("repeat", repeat);
        r.put("step", k);
        r.put("offered_rps", rps);
        r.put("slo_met", misses.isEmpty());
        r.put("slo_misses", misses);
        results.add(visit.stamp(r));
        steps.add(r);
        log.line(target.spec().name() + " " + scenario.name() + ": step " + k + " at " + rps + " rps: "
                + (misses.isEmpty() ? "meets the SLO" : "misses: " + String.join("; ", misses)));
        return r;
    }

    /** One point of the latency-vs-rate curve. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> capacityPoint(Map<String, Object> r) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("step", r.get("step"));
        p.put("offered_rps", r.get("offered_rps"));
        p.put("throughput_rps", r.get("throughput_rps"));
        Object latency = r.get("latency_ms");
        for (String q : List.of("p50", "p99", "p999")) {
            p.put(q, latency instanceof Map ? ((Map<String, Object>) latency).get(q) : null);
        }
        p.put("errors", r.get("errors") instanceof Map ? ((Map<String, Object>) r.get("errors")).get("total") : null);
        p.put("behind_schedule", r.get("behind_schedule"));
        p.put("steady", RepeatSummary.steady(r));
        p.put("slo_met", r.get("slo_met"));
        return p;
    }

    @Override
    public void summarize() {
        summary = experiment.repeat() > 1 ? CapacitySummary.of(capacities) : List.of();
        if (!summary.isEmpty()) {
            results.put("capacity_summary", summary);
        }
    }

    @Override
    public void conclude(Consumer<String> out) {
        capacities.forEach(c -> out.accept("capacity " + c.get("target") + " " + c.get("scenario") + (experiment.repeat() > 1 ? " search " + c.get("repeat") : "")
                + ": " + c.get("capacity_rps") + " rps meets " + plan.slo()
                + (Boolean.TRUE.equals(c.get("reached_max")) ? " (the --max-rps limit; the real capacity may be higher)" : "")));
        summary.forEach(m -> out.accept(CapacitySummary.describe(m)));
    }

    @Override
    public boolean answers() {
        return false;
    }
}
