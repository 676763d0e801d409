package dev.loomflux.lab.procedure;

import dev.loomflux.lab.capacity.CapacityPlan;
import dev.loomflux.lab.capacity.CapacitySearch;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.ResultFiles;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.result.CapacityMedian;
import dev.loomflux.lab.result.CapacitySearchResult;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.verdict.CapacityMedians;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * ./lab capacity: per target x scenario (x repeat, each in a fresh JVM), doubling then bisection
 * over open-model rates until the highest one that meets the SLO; every step is a result, each
 * search a "capacity" entry, and with several searches their median (capacity_summary).
 */
public final class SearchCapacity implements Procedure {
    private final Experiment experiment;
    private final CapacityPlan plan;
    private final Stop stop;
    private final ResultsFile results;
    private final Log log;
    private final List<CapacitySearchResult> capacities = new ArrayList<>();
    private List<CapacityMedian> summary = List.of();

    public SearchCapacity(Experiment experiment, CapacityPlan plan, RunContext run, ResultsFile results) {
        this.experiment = experiment;
        this.plan = plan;
        this.stop = run.stop();
        this.results = results;
        this.log = run.log();
    }

    @Override
    public boolean run(TargetVisit visit, Scenario scenario) {
        String name = visit.spec().name();
        List<Result> steps = new ArrayList<>();
        CapacitySearch.Found outcome = CapacitySearch.search(plan.startRps(), plan.maxRps(), plan.resolution(), plan.maxSteps(), rps -> {
            if (stop.requested() || !visit.alive()) {
                return false;
            }
            Result r = capacityStep(visit, scenario, rps, steps);
            // A miss is measured once more before it counts, unless the driver fell behind (an overload is no accident):
            // a single miss ended searches below the knee, by a p99 that jumped for one step or by a JIT still compiling
            // steps later at a low rate (docs/steady-state.md, "No verdict without steady state").
            if (!r.slo().sloMet() && !Boolean.TRUE.equals(r.load().behindSchedule()) && !stop.requested() && visit.alive()) {
                log.line(name + " " + scenario.name() + ": measuring " + rps + " rps again before counting the miss");
                r = capacityStep(visit, scenario, rps, steps);
            }
            return r.slo().sloMet();
        });
        capacities.add(new CapacitySearchResult(name, scenario.name(), visit.jvm(), plan.slo().toString(), outcome.capacity(), outcome.reachedMax(),
                steps.stream().map(CapacitySearchResult.Step::of).toList()));
        results.capacity(capacities);
        return true;
    }

    /** One measured rate of a capacity search, recorded as a result and as the search's next step. */
    private Result capacityStep(TargetVisit visit, Scenario scenario, int rps, List<Result> steps) {
        int repeat = visit.jvm();
        int k = steps.size() + 1;
        LoadProfile.Rate profile = new LoadProfile.Rate(rps, plan.stepDuration(), plan.inFlight(rps));
        Result r = visit.measure(scenario, new Measurer.Task(profile, k == 1 ? experiment.warmup() : plan.stepWarmup(), k == 1,
                ResultFiles.Tag.NONE.repeat(repeat, experiment.repeats()).step(k)));
        List<String> misses = new ArrayList<>(plan.slo().misses(r));
        if (!r.steady()) {
            // Its percentiles may still be moving: a step that is not steady cannot show that the target meets the SLO.
            misses.add("not steady");
        }
        r = visit.stamp(r).withStep(k, rps, misses);
        results.add(r);
        steps.add(r);
        log.line(visit.spec().name() + " " + scenario.name() + ": step " + k + " at " + rps + " rps: "
                + (misses.isEmpty() ? "meets the SLO" : "misses: " + String.join("; ", misses)));
        return r;
    }

    @Override
    public void summarize() {
        summary = experiment.repeats() > 1 ? CapacityMedians.of(capacities) : List.of();
        if (!summary.isEmpty()) {
            results.capacitySummary(summary);
        }
    }

    @Override
    public void conclude(Consumer<String> out) {
        capacities.forEach(c -> out.accept("capacity " + c.target() + " " + c.scenario() + (experiment.repeats() > 1 ? " search " + c.repeat() : "")
                + ": " + c.capacityRps() + " rps meets " + plan.slo() + (c.reachedMax() ? " (the --max-rps limit; the real capacity may be higher)" : "")));
        summary.forEach(m -> out.accept(m.describe()));
    }

    @Override
    public boolean answers() {
        return false;
    }
}
