package dev.loomflux.lab.measure;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.Errors;
import dev.loomflux.lab.driver.FlowMeasurement;
import dev.loomflux.lab.driver.StepMeasurement;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.Hlog;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.StepResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * A load of flows in results.json (docs/results-schema.md): each flow and each of its steps as the driver measured them, each
 * with an HdrHistogram log of its own beside the load's ({@code <base>.<flow>.hlog}, {@code <base>.<flow>.<step>.hlog}),
 * and the load's errors with the steps' own failures counted in: a step that answered with a status it does not expect, or
 * without the value it extracts, failed its user's iteration as surely as a 5xx did.
 */
public final class FlowResults {
    private FlowResults() {
    }

    /**
     * One measured window's flows, their logs written into {@code dir}.
     *
     * @param base   the load's file name without {@code .hlog}: {@code mvc.crud}
     * @param header what the logs' first comment says the load was: {@code mvc crud}
     * @param fromMs the window's start (epoch ms), for a log of one interval when the driver keeps none per second
     */
    public static List<FlowResult> of(List<FlowMeasurement> flows, Path dir, String base, String header, long fromMs, long toMs) {
        List<FlowResult> out = new ArrayList<>();
        for (FlowMeasurement f : flows) {
            String flowLog = base + "." + f.flow() + ".hlog";
            Hlog.write(dir.resolve(flowLog), header + " flow " + f.flow() + " (whole iterations)", intervals(f.intervals(), f.latency(), fromMs, toMs));
            List<StepResult> steps = new ArrayList<>();
            for (StepMeasurement s : f.steps()) {
                String stepLog = base + "." + f.flow() + "." + s.step() + ".hlog";
                Hlog.write(dir.resolve(stepLog), header + " flow " + f.flow() + " step " + s.step() + ": " + s.request(),
                        intervals(s.intervals(), s.latency(), fromMs, toMs));
                Errors e = s.errors();
                steps.add(new StepResult(s.step(), s.request(), s.requests(), s.responses(), Result.round(s.throughput()), Result.Latency.of(s.latency()),
                        new Result.ErrorCounts(s.failures(), e.connect(), e.timeout(), e.status4xx(), e.status5xx(), e.other(), s.unexpected(), s.missing()),
                        s.missing() > 0 ? s.missingCause() : null, stepLog));
            }
            out.add(new FlowResult(f.flow(), f.completed(), f.failed(), Result.round(f.throughput()), Result.round(f.inFlight()),
                    Result.Latency.of(f.latency()), flowLog, steps));
        }
        return out;
    }

    /**
     * A target's blocks' flows as one window's: counts and latencies summed, throughput and in flight over all the blocks' send
     * windows, one log interval per block that measured the flow or step (as the load's own log has in the paired design).
     * Flows and steps are matched by name, in the order the blocks first give them.
     */
    public static List<FlowMeasurement> overBlocks(List<Block> blocks) {
        double seconds = blocks.stream().mapToDouble(Block::seconds).sum();
        Map<String, List<InBlock<FlowMeasurement>>> byFlow = new LinkedHashMap<>();
        for (Block b : blocks) {
            b.flows().forEach(f -> byFlow.computeIfAbsent(f.flow(), k -> new ArrayList<>()).add(new InBlock<>(b, f)));
        }
        List<FlowMeasurement> out = new ArrayList<>();
        byFlow.forEach((flow, each) -> {
            Map<String, List<InBlock<StepMeasurement>>> bySteps = new LinkedHashMap<>();
            each.forEach(m -> m.part().steps().forEach(s -> bySteps.computeIfAbsent(s.step(), k -> new ArrayList<>()).add(new InBlock<>(m.block(), s))));
            List<StepMeasurement> steps = bySteps.values().stream().map(s -> stepOverBlocks(s, seconds)).toList();
            out.add(new FlowMeasurement(flow, each.stream().mapToLong(m -> m.part().completed()).sum(), each.stream().mapToLong(m -> m.part().failed()).sum(),
                    perSecond(each, FlowMeasurement::throughput, seconds), perSecond(each, FlowMeasurement::inFlight, seconds),
                    sum(each, FlowMeasurement::latency), steps, stamped(each, FlowMeasurement::latency)));
        });
        return out;
    }

    /** A flow or step as one block measured it. */
    private record InBlock<T>(Block block, T part) {
    }

    private static StepMeasurement stepOverBlocks(List<InBlock<StepMeasurement>> each, double seconds) {
        StepMeasurement first = each.get(0).part();
        Errors errors = new Errors(0, 0, 0, 0, 0);
        for (InBlock<StepMeasurement> s : each) {
            errors = errors.plus(s.part().errors());
        }
        return new StepMeasurement(first.step(), first.request(), each.stream().mapToLong(m -> m.part().requests()).sum(),
                each.stream().mapToLong(m -> m.part().responses()).sum(), perSecond(each, StepMeasurement::throughput, seconds),
                sum(each, StepMeasurement::latency), errors, each.stream().mapToLong(m -> m.part().unexpected()).sum(),
                each.stream().mapToLong(m -> m.part().missing()).sum(), first.extracts(), stamped(each, StepMeasurement::latency));
    }

    /** A block's flows as results.json's blocks carry them: what the comparisons of each flow and step read. */
    public static List<BlockRecord.FlowFigures> figures(List<FlowMeasurement> flows) {
        return flows.stream().map(f -> new BlockRecord.FlowFigures(f.flow(), f.completed(), f.failed(), Result.round(f.throughput()), ms(f.latency(), 50),
                ms(f.latency(), 99), f.latency().getTotalCount() == 0 ? null : Result.round(f.latency().getMean() / 1e6),
                f.steps().stream().map(s -> new BlockRecord.StepFigures(s.step(), s.request(), s.responses(), s.failures(), Result.round(s.throughput()),
                        ms(s.latency(), 50), ms(s.latency(), 99))).toList())).toList();
    }

    /** The load's failures by cause: its requests' errors, and with flows the steps' unexpected statuses and missing values. */
    public static Result.ErrorCounts errors(Errors e, List<FlowResult> flows) {
        if (flows.isEmpty()) {
            return new Result.ErrorCounts(e.total(), e.connect(), e.timeout(), e.status4xx(), e.status5xx(), e.other());
        }
        long unexpected = 0;
        long missing = 0;
        for (FlowResult f : flows) {
            for (StepResult s : f.steps()) {
                unexpected += s.errors().unexpected();
                missing += s.errors().missing();
            }
        }
        return new Result.ErrorCounts(e.total() + unexpected + missing, e.connect(), e.timeout(), e.status4xx(), e.status5xx(), e.other(), unexpected, missing);
    }

    /** The steps' own failures of a block's flows, beside its requests' errors. */
    public static long stepFailures(List<FlowMeasurement> flows) {
        return flows.stream().flatMap(f -> f.steps().stream()).mapToLong(s -> s.unexpected() + s.missing()).sum();
    }

    /** Each block's rate weighted by its send window: the rate over all the blocks' {@code seconds}. */
    private static <T> double perSecond(List<InBlock<T>> each, ToDoubleFunction<T> rate, double seconds) {
        return seconds == 0 ? 0 : each.stream().mapToDouble(m -> rate.applyAsDouble(m.part()) * m.block().seconds()).sum() / seconds;
    }

    private static <T> Histogram sum(List<InBlock<T>> each, Function<T, Histogram> latency) {
        Histogram out = latency.apply(each.get(0).part()).copy();
        each.subList(1, each.size()).forEach(m -> out.add(latency.apply(m.part())));
        return out;
    }

    /** One interval per block, stamped with its send window. */
    private static <T> List<Histogram> stamped(List<InBlock<T>> each, Function<T, Histogram> latency) {
        List<Histogram> out = new ArrayList<>();
        for (InBlock<T> m : each) {
            Histogram h = latency.apply(m.part()).copy();
            h.setStartTimeStamp(m.block().startMs());
            h.setEndTimeStamp(m.block().endMs());
            out.add(h);
        }
        return out;
    }

    private static List<Histogram> intervals(List<Histogram> kept, Histogram whole, long fromMs, long toMs) {
        if (!kept.isEmpty()) {
            return kept;
        }
        Histogram h = whole.copy();
        h.setStartTimeStamp(fromMs);
        h.setEndTimeStamp(toMs);
        return List.of(h);
    }

    private static Double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? null : Result.round(h.getValueAtPercentile(percentile) / 1e6);
    }
}
