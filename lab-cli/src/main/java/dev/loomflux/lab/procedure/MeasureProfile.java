package dev.loomflux.lab.procedure;

import dev.loomflux.lab.experiment.Experiment;
import dev.loomflux.lab.experiment.Scenario;
import dev.loomflux.lab.measure.Measurer;
import dev.loomflux.lab.measure.ResultFiles;
import dev.loomflux.lab.process.Stop;
import dev.loomflux.lab.result.RepeatSummary;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.ResultsFile;
import dev.loomflux.lab.result.Summary;
import dev.loomflux.lab.sut.TargetSpec;
import dev.loomflux.lab.verdict.RepeatVerdicts;
import java.util.function.Consumer;

/** The experiment's own profile, once per target x scenario x repeat; over repeats, medians and verdicts. */
public final class MeasureProfile implements Procedure {
    private final Experiment experiment;
    private final Stop stop;
    private final ResultsFile results;
    private final Progress progress;
    private RepeatSummary summary;

    /** @param progress null when the profile ends by a request count (loops, burst): no time to estimate */
    public MeasureProfile(Experiment experiment, Stop stop, ResultsFile results, Progress progress) {
        this.experiment = experiment;
        this.stop = stop;
        this.results = results;
        this.progress = progress;
    }

    @Override
    public boolean run(TargetVisit visit, Scenario scenario) {
        if (progress != null) {
            progress.unitStarted();
        }
        Result r = visit.measure(scenario, new Measurer.Task(experiment.profile(), experiment.warmup(), true,
                ResultFiles.Tag.NONE.repeat(visit.jvm(), experiment.repeats())));
        if (stop.requested()) {
            return true; // cut short by Ctrl-C: not a result
        }
        results.add(visit.stamp(r));
        if (progress != null) {
            progress.unitDone();
        }
        return true;
    }

    @Override
    public void summarize() {
        summary = RepeatVerdicts.of(results.results(), experiment.targets().stream().map(TargetSpec::name).toList(),
                experiment.scenarios().stream().map(Scenario::name).toList());
        results.summary(summary);
    }

    @Override
    public void conclude(Consumer<String> log) {
        // Sets measured in the same rounds are judged by their pooled ratios (the "paired" lines); verdicts over two
        // or three medians beside those said "too few repeats" of what the pairs had decided.
        if (experiment.repeats() > 1 && !experiment.inRounds()) {
            Summary.printRepeats(summary, log);
        }
    }

    @Override
    public boolean answers() {
        return true;
    }
}
