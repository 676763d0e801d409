package dev.loomflux.lab.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.report.GateSummary;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gate over a real run: ./lab ab mvc slow --define slow=mvc,-Dloomflux.cpu.extra-work-pct=20 --scenario cpu (2026-12-03,
 * docs/ci.md), its results.json as the fixture ab-cpu-20pct.
 */
class GateOfRunTest {
    private static final Path FIXTURE = Path.of("src/test/resources/fixtures/ab-cpu-20pct");

    @Test
    void theSlowerHeadIsARegressionAndTheBaseAgainstItselfIsNot() throws Exception {
        RunRecord run = Results.record(FIXTURE);
        Gate g = Gate.of(run, "base", "head", 5);
        assertEquals(List.of("throughput", "median latency", "p99", "CPU per request"), g.checks().stream().map(Gate.Check::metric).toList());
        Gate.Check throughput = g.checks().get(0);
        assertEquals(Gate.Outcome.REGRESSION, throughput.outcome());
        assertEquals(0.879, throughput.ratio());
        assertEquals(Gate.Outcome.REGRESSION, g.checks().get(3).outcome(), "CPU per request rose");
        assertEquals(4, g.aa().size());
        assertTrue(g.aa().stream().allMatch(c -> c.outcome() == Gate.Outcome.UNDECIDED || c.outcome() == Gate.Outcome.EQUIVALENT), g.aa().toString());
        assertEquals(List.of(), g.behaviour());
        assertEquals(Gate.FAIL, g.exitCode());
        // The base's sets compared as two targets: each round's two base blocks, none left out for being the other set's
        assertTrue(g.aa().get(0).rounds() >= 10, g.aa().toString());
        String md = GateSummary.markdown(g, run, "mvc", "slow");
        assertTrue(md.startsWith("# loomflux ab: head (slow) against base (mvc)\n"), md);
        assertTrue(md.contains("| cpu-work1000 | throughput | 0.879 | 0.822-0.950 | 14 | regression |"), md);
        assertTrue(md.contains("## CPU per request by category") && md.contains("| app |"), md);
        assertTrue(md.contains("## Machine check (A/A)"), md);
    }
}
