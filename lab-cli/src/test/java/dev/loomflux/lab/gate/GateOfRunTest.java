package dev.loomflux.lab.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.report.GateSummary;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import dev.loomflux.lab.verdict.Comparisons;
import dev.loomflux.lab.verdict.Timing;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gate over real runs (2026-12-03, docs/ci.md), their results.json as fixtures: ./lab ab mvc slow --define
 * slow=mvc,-Dloomflux.cpu.extra-work-pct=20 --scenario cpu --work 10000 (ab-cpu-20pct), and spring-petclinic-rest against
 * itself on its reception flow, ./lab ab petclinic petclinic experiments/petclinic.yaml (ab-petclinic-aa).
 */
class GateOfRunTest {
    private static final Path FIXTURE = Path.of("src/test/resources/fixtures/ab-cpu-20pct");
    private static final Path PETCLINIC_AA = Path.of("src/test/resources/fixtures/ab-petclinic-aa");

    @Test
    void theSlowerHeadIsARegressionAndTheBaseAgainstItselfIsNot() throws Exception {
        RunRecord run = Results.record(FIXTURE);
        Gate g = Gate.of(run, "base", "head", 5, Timing.FINE);
        assertEquals(List.of("throughput", "median latency", "p99", "CPU per request"), g.checks().stream().map(Gate.Check::metric).toList());
        assertEquals(Gate.Outcome.REGRESSION, g.checks().get(1).outcome(), "the median rose: " + g.checks());
        assertEquals(Gate.Outcome.REGRESSION, g.checks().get(3).outcome(), "CPU per request rose: " + g.checks());
        // Too few requests a block to tell throughput within the margin: the design's note leaves it undecided.
        assertEquals(Gate.Outcome.UNDECIDED, g.checks().get(0).outcome());
        assertNotNull(g.checks().get(0).note());
        assertEquals(4, g.aa().size());
        assertTrue(g.aa().stream().allMatch(c -> c.outcome() == Gate.Outcome.UNDECIDED || c.outcome() == Gate.Outcome.EQUIVALENT), g.aa().toString());
        assertEquals(List.of(), g.behaviour());
        assertEquals(Gate.FAIL, g.exitCode());
        // The base's sets compared as two targets: each round's two base blocks, none left out for being the other set's
        assertTrue(g.aa().get(0).rounds() >= 10, g.aa().toString());
        String md = GateSummary.markdown(g, run, "mvc", "slow");
        assertTrue(md.startsWith("# loomflux ab: head (slow) against base (mvc)\n"), md);
        assertTrue(md.contains("| cpu-work10000 | CPU per request | 1.163 | 1.081-1.203 | 15 | regression |"), md);
        assertTrue(md.contains("## CPU per request by category") && md.contains("| app |"), md);
        assertTrue(md.contains("## Machine check (A/A)"), md);
    }

    @Test
    void heldTogetherEachIntervalIsWiderThanTheRunsOwn() throws Exception {
        RunRecord run = Results.record(FIXTURE);
        double level = run.paired().stops().get(0).level();
        Gate.Check held = Gate.of(run, "base", "head", 5, Timing.FINE).checks().get(3);
        var alone = Comparisons.of(run.paired().blocks(), List.of("base", "head"), Timing.FINE, Map.of("cpu-work10000", level)).stream()
                .filter(c -> c.metric().equals(held.metric()) || c.metricKind() != null && c.metricKind().words().equals(held.metric())).findFirst().orElseThrow();
        double aloneLow = 1 / alone.estimate().ci().get(1);
        double aloneHigh = 1 / alone.estimate().ci().get(0);
        // Four comparisons held together: each at a quarter of the run's level, so each interval contains the run's own.
        assertTrue(held.low() < aloneLow - 0.001 && held.high() > aloneHigh - 0.001, held + " against " + aloneLow + "-" + aloneHigh);
        assertEquals(held.ratio(), Math.round(1000 / alone.estimate().ratio()) / 1000.0, 1e-9);
    }

    @Test
    void aRealAppAgainstItselfOnAFlowIsNoRegression() throws Exception {
        RunRecord run = Results.record(PETCLINIC_AA);
        Gate g = Gate.of(run, "base", "head", 5, Timing.FINE);
        // The flow's four metrics and each of its four steps' three, held together.
        assertEquals(16, g.checks().size(), g.checks().toString());
        assertTrue(g.checks().stream().allMatch(c -> c.outcome() == Gate.Outcome.UNDECIDED || c.outcome() == Gate.Outcome.EQUIVALENT), g.checks().toString());
        assertTrue(g.checks().stream().allMatch(c -> c.low() < 1 && c.high() > 1), "every interval holds 1: " + g.checks());
        assertEquals(16, g.aa().size());
        assertEquals(false, g.noisy(), g.aa().toString());
        assertEquals(List.of(), g.behaviour(), "the same build answers with the same statuses");
        assertEquals(Gate.UNDECIDED, g.exitCode());
        assertTrue(g.headline().startsWith("ab: no regression shown, 16 of 16 comparisons undecided"), g.headline());
    }
}
