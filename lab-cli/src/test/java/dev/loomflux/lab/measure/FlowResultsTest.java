package dev.loomflux.lab.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.loomflux.lab.driver.Block;
import dev.loomflux.lab.driver.Errors;
import dev.loomflux.lab.driver.FlowMeasurement;
import dev.loomflux.lab.driver.StepMeasurement;
import dev.loomflux.lab.driver.WindowShare;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.FlowResult;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.result.StepResult;
import java.io.FileNotFoundException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A load of flows as results.json holds it: per flow and step, summed over a target's blocks, each with its own .hlog, the steps' failures in the load's errors. */
class FlowResultsTest {
    private static final long START = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private static Histogram latency(long count, long ms) {
        Histogram h = new Histogram(3_600_000_000_000L, 2);
        h.recordValueWithCount(ms * 1_000_000, count);
        return h;
    }

    /** A block of {@code seconds} in which the crud flow's create step was answered {@code responses} times, {@code unexpected} of them with a 200. */
    private static Block block(int round, long startMs, int seconds, long responses, long unexpected, long missing, long ms) {
        StepMeasurement create = new StepMeasurement("create", "POST /items", responses, responses, (double) responses / seconds, latency(responses, ms),
                new Errors(0, 0, 1, 0, 0), unexpected, missing, "$.id");
        long failed = unexpected + missing + 1;
        FlowMeasurement crud = new FlowMeasurement("crud", responses - failed, failed, (double) (responses - failed) / seconds, 2.0 * round,
                latency(responses - failed, ms * 4), List.of(create));
        return new Block("mvc", round, 0, startMs, startMs + seconds * 1000L, responses, responses, WindowShare.NONE, new Errors(0, 0, 1, 0, 0), 0,
                latency(responses, ms), List.of(), -1, List.of(crud));
    }

    @Test
    void aTargetsBlocksAddUpAndEachFlowAndStepGetsItsLog() throws FileNotFoundException {
        List<Block> blocks = List.of(block(1, START, 1, 100, 2, 0, 5), block(2, START + 5000, 3, 600, 0, 4, 10));
        FlowMeasurement crud = FlowResults.overBlocks(blocks).get(0);
        assertEquals(97 + 595, crud.completed());
        assertEquals(3 + 5, crud.failed());
        assertEquals(692 / 4.0, crud.throughput(), 1e-9, "iterations over the blocks' 4 s");
        assertEquals((2.0 * 1 + 4.0 * 3) / 4, crud.inFlight(), 1e-9, "in flight weighted by each block's seconds");
        StepMeasurement create = crud.steps().get(0);
        assertEquals(700, create.responses());
        assertEquals(2, create.unexpected());
        assertEquals(4, create.missing());
        assertEquals(2, create.errors().status4xx());
        assertEquals(List.of(START, START + 5000), create.intervals().stream().map(Histogram::getStartTimeStamp).toList(), "an interval per block");
        assertEquals(2 + 4, FlowResults.stepFailures(blocks.stream().flatMap(b -> b.flows().stream()).toList()), "unexpected statuses and missing values");

        List<FlowResult> flows = FlowResults.of(List.of(crud), dir, "mvc.crud", "mvc crud", START, START + 8000);
        FlowResult f = flows.get(0);
        assertEquals("mvc.crud.crud.hlog", f.hlog());
        StepResult s = f.steps().get(0);
        assertEquals("mvc.crud.crud.create.hlog", s.hlog());
        assertEquals(new Result.ErrorCounts(8, 0, 0, 2, 0, 0, 2L, 4L), s.errors(), "the step's own failures count in its total");
        assertEquals("step create: no $.id in the response", s.missingCause());
        assertEquals(List.of(100L, 600L), counts(dir.resolve(s.hlog())));
        assertEquals(List.of(97L, 595L), counts(dir.resolve(f.hlog())));
        assertEquals(new Result.ErrorCounts(2 + 2 + 4, 0, 0, 2, 0, 0, 2L, 4L), FlowResults.errors(new Errors(0, 0, 2, 0, 0), flows),
                "the load's errors with its steps' own");
        assertEquals(new Result.ErrorCounts(2, 0, 0, 2, 0, 0), FlowResults.errors(new Errors(0, 0, 2, 0, 0), List.of()), "no flows, no fields of theirs");
    }

    @Test
    void aStepThatLackedNothingHasNoCauseAndADriverWithoutSecondsOneInterval() throws FileNotFoundException {
        Block b = block(1, START, 2, 50, 0, 0, 5);
        FlowResult f = FlowResults.of(b.flows(), dir, "mvc.crud", "mvc crud", START, START + 2000).get(0);
        assertNull(f.steps().get(0).missingCause());
        assertEquals(List.of(50L), counts(dir.resolve(f.steps().get(0).hlog())), "the whole window as one interval");
        BlockRecord.FlowFigures figures = FlowResults.figures(b.flows()).get(0);
        BlockRecord.StepFigures create = figures.steps().get(0);
        assertEquals(List.of("create", "POST /items", 50L, 1L, 25.0), List.of(create.step(), create.request(), create.responses(), create.failures(), create.rps()));
        assertEquals(5.0, create.p50(), 0.1, "ms, at the histogram's 2 digits");
        assertEquals(20.0, figures.meanMs(), 0.1);
        assertEquals(0, FlowResults.stepFailures(b.flows()), "a 4xx is the request's error, not the step's own");
    }

    private static List<Long> counts(Path hlog) throws FileNotFoundException {
        List<Long> out = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            out.add(((Histogram) h).getTotalCount());
        }
        return out;
    }
}
