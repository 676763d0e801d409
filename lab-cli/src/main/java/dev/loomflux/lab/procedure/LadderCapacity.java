package dev.loomflux.lab.procedure;

import dev.loomflux.lab.capacity.CapacityBootstrap;
import dev.loomflux.lab.capacity.CapacityPlan;
import dev.loomflux.lab.capacity.Ladder;
import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Log;
import dev.loomflux.lab.measure.RunContext;
import dev.loomflux.lab.process.OpenFiles;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.CapacityLadder;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.sut.TargetSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * ./lab capacity in the paired design: per scenario a ladder of open-model rates ({@link Ladder}), every JVM measured at each
 * rung in the same interleaved rounds, each rung chosen from what the ones before it showed; then each target's capacity at
 * the SLO and every pair's ratio, with intervals ({@link CapacityBootstrap}). The first rung warms the JVMs from cold; later
 * ones find them warm, and their lead-in rounds settle them at the new rate.
 */
public final class LadderCapacity implements Procedure {
    private final Experiment experiment;
    private final CapacityPlan plan;
    private final Stop stop;
    private final ResultsFile results;
    private final Log log;
    private final List<String> targets;
    /** Per scenario, the lowest rung the driver could not offer. */
    private final Map<String, Integer> driverLimits = new TreeMap<>();
    private final List<CapacityLadder> ladders = new ArrayList<>();

    public LadderCapacity(Experiment experiment, CapacityPlan plan, RunContext run, ResultsFile results) {
        this.experiment = experiment;
        this.plan = plan;
        this.stop = run.stop();
        this.results = results;
        this.log = run.log();
        this.targets = experiment.targets().stream().map(TargetSpec::name).toList();
    }

    @Override
    public boolean run(TargetVisit visit, Scenario scenario) {
        throw new IllegalStateException("a capacity ladder is measured in paired rounds");
    }

    @Override
    public Iterator<ScenarioCell> cells(Experiment e, Scenario base) {
        int highest = highest();
        if (highest < plan.maxRps()) {
            log.line(base.name() + ": the ladder stops at " + highest + " rps: above it the in-flight slots of " + experiment.targets().size() * experiment.sets()
                    + " JVMs, whose connections the rounds keep open together, would pass this process's open-file limit (ulimit -n)");
        }
        Ladder ladder = new Ladder(Math.min(plan.startRps(), highest), highest, plan.resolution(), plan.maxSteps());
        return new Iterator<>() {
            private int last = -1;
            private int next = -2;

            @Override
            public boolean hasNext() {
                if (next == -2) {
                    next = stop.requested() ? -1 : after(ladder, base, last);
                }
                return next > 0;
            }

            @Override
            public ScenarioCell next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                last = next;
                next = -2;
                log.line(base.name() + ": rung at " + last + " rps (" + (ladder.rates().size() + 1) + " of up to " + plan.maxSteps() + ")");
                return ScenarioCell.rung(e, base, new LoadProfile.Rate(last, e.design().block(), plan.inFlight(last)));
            }
        };
    }

    /**
     * The highest rate the ladder may try: --max-rps, or less where the connections its in-flight slots need to every JVM at
     * once would pass this process's open-file limit (the rounds keep every JVM's connections open).
     */
    private int highest() {
        long perJvm = OpenFiles.perJvm(experiment.targets().size() * experiment.sets());
        int rps = plan.maxRps();
        while (rps > 1 && plan.inFlight(rps) > perJvm) {
            rps = (int) (rps * 0.9);
        }
        return rps;
    }

    /**
     * The rung after {@code last} (-1 before the first), from what it showed; -1 when the ladder is done. A target with no block
     * at the last rung (it died, or never started) missed it and leads the ladder no further.
     */
    private int after(Ladder ladder, Scenario base, int last) {
        List<String> measured = targets;
        if (last > 0) {
            Set<String> present = new HashSet<>();
            results.blocks().stream().filter(b -> b.turn().scenario().equals(base.name()) && b.turn().cell() != null
                    && Integer.valueOf(last).equals(b.turn().cell().get(ScenarioCell.RATE))).forEach(b -> present.add(b.turn().target()));
            measured = targets.stream().filter(present::contains).toList();
            List<CapacityBootstrap.Observation> rung = observations(base.name()).stream().filter(o -> o.rps() == last).toList();
            Map<String, Ladder.Outcome> outcomes = new LinkedHashMap<>(CapacityBootstrap.rung(targets, rung));
            if (rung.isEmpty()) {
                // The rounds failed as a whole (the lab's connections, the driver): the lab's limit, not any target's.
                log.line(base.name() + ": no block measured at " + last + " rps: the lab's limit, not the targets'; no higher rung is tried");
                targets.forEach(t -> outcomes.put(t, Ladder.Outcome.DRIVER));
            }
            ladder.measured(last, outcomes);
            log.line(base.name() + " at " + last + " rps: " + outcomes.entrySet().stream().map(en -> en.getKey() + " " + switch (en.getValue()) {
                case HOLDS -> "meets the SLO";
                case HOLDS_NARROWLY -> "meets the SLO narrowly (a redraw of its rounds misses it in over 2.5% of draws)";
                case FAILS -> "misses it";
                case DRIVER -> "not offered (the driver fell behind with in-flight slots free: its limit, not the target's)";
            }).collect(Collectors.joining(", ")));
            if (outcomes.containsValue(Ladder.Outcome.DRIVER)) {
                driverLimits.merge(base.name(), last, Math::min);
                measured = targets; // the lab's limit: every target stays, and no rung above it is tried
            }
        }
        return ladder.next(measured);
    }

    /**
     * The scenario's blocks as the SLO judges them. A target without a block in a round the others measured at a rung (it died,
     * or failed there) missed that rung.
     */
    private List<CapacityBootstrap.Observation> observations(String scenario) {
        List<CapacityBootstrap.Observation> out = new ArrayList<>();
        Map<Integer, Map<Integer, Set<String>>> seen = new TreeMap<>();
        for (BlockRecord b : results.blocks()) {
            Integer rps = b.turn().cell() == null ? null : b.turn().cell().get(ScenarioCell.RATE);
            if (!b.turn().scenario().equals(scenario) || rps == null) {
                continue;
            }
            BlockRecord.BlockLoad load = b.load();
            out.add(new CapacityBootstrap.Observation(rps, b.turn().round(), b.turn().target(), plan.slo().severity(b, plan.inFlight(rps)),
                    load.seconds() > 0 ? (load.responses() - load.errors()) / load.seconds() : Double.NaN,
                    load.requests() > 0 ? 100.0 * load.errors() / load.requests() : Double.NaN));
            seen.computeIfAbsent(rps, k -> new TreeMap<>()).computeIfAbsent(b.turn().round(), k -> new HashSet<>()).add(b.turn().target());
        }
        seen.forEach((rps, rounds) -> rounds.forEach((round, present) -> targets.stream().filter(t -> !present.contains(t))
                .forEach(t -> out.add(new CapacityBootstrap.Observation(rps, round, t, Double.POSITIVE_INFINITY)))));
        return out;
    }

    @Override
    public void summarize() {
        for (Scenario s : experiment.scenarios()) {
            List<CapacityBootstrap.Observation> obs = observations(s.name());
            if (!obs.isEmpty()) {
                ladders.add(CapacityBootstrap.of(s.name(), plan.slo(), experiment.design().rounds(), targets, obs, driverLimits.get(s.name()),
                        results.path().toString().hashCode()));
            }
        }
        results.capacityLadder(ladders);
    }

    @Override
    public void conclude(Consumer<String> out) {
        for (CapacityLadder l : ladders) {
            out.accept("capacity " + l.scenario() + " at " + l.slo() + ", rungs " + l.rates() + (l.driverLimit() == null ? ""
                    : " (the driver could not offer " + l.driverLimit() + " rps: no capacity is read at or above it)"));
            l.targets().forEach(t -> out.accept("  " + t.target() + " " + t.describe()));
            l.pairs().forEach(p -> out.accept("  " + p.describe()));
        }
    }

    @Override
    public boolean answers() {
        return false;
    }
}
