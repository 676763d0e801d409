package dev.loomflux.lab.paired;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.result.LeadIn;
import dev.loomflux.lab.verdict.Comparisons;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The lead-in rule on fake JIT series: per round, every JVM's block with the compiler CPU over its window (% of one CPU); a round is their mean. */
class LeadInRuleTest {
    private static final double LOUD = Comparisons.COMPILER_LIMIT_PCT * 4;
    private static final double QUIET = Comparisons.COMPILER_LIMIT_PCT / 4;

    /** Feeds rounds of two JVMs (a the compiling one, b quiet) until the rule ends the lead-in; the rounds it took. */
    private static LeadInRule feed(int cap, double... aPerRound) {
        LeadInRule rule = new LeadInRule(cap, LeadInRule.QUIET_ROUNDS);
        for (int round = 0; round < aPerRound.length && rule.leading(); round++) {
            rule.block(round, "a#1", aPerRound[round] + QUIET, aPerRound[round]);
            rule.block(round, "b#1", aPerRound[round] + QUIET, QUIET);
            rule.roundEnded(round);
        }
        return rule;
    }

    @Test
    void endsOnceQuietForEnoughRoundsInARow() {
        LeadInRule rule = feed(20, LOUD, LOUD, 0, 0, 0, 0, 0);
        assertEquals(5, rule.measuredFrom(), "two loud rounds, then three quiet: measured from round 6 (index 5)");
        assertTrue(rule.why().startsWith("every JVM's JIT quiet for 3 rounds in a row"), rule.why());
    }

    @Test
    void aLoudRoundStartsTheCountAgain() {
        LeadInRule rule = feed(20, 0, 0, LOUD, 0, 0, LOUD, 0, 0, 0, 0);
        assertEquals(9, rule.measuredFrom());
    }

    @Test
    void runsOnWhileLoudAndStopsAtTheCapNamingTheJvm() {
        double[] loud = new double[30];
        Arrays.fill(loud, LOUD);
        LeadInRule rule = feed(12, loud);
        assertEquals(12, rule.measuredFrom());
        assertTrue(rule.why().startsWith("at its cap of 12 rounds, a#1's compiler threads the busiest"), rule.why());
        assertTrue(rule.why().contains("--warmup"), rule.why());
        LeadIn record = rule.record("json", null);
        assertEquals(12, record.rounds());
        assertEquals(12, record.compilerPct().size());
        assertEquals(LOUD + QUIET, record.compilerPct().get(0), 0.05, "both blocks read a's compiling and b's own quiet");
    }

    @Test
    void justUnderTheLimitIsQuietJustOverIsNot() {
        assertEquals(3, feed(20, Comparisons.COMPILER_LIMIT_PCT - QUIET - 0.01, Comparisons.COMPILER_LIMIT_PCT - QUIET - 0.01,
                Comparisons.COMPILER_LIMIT_PCT - QUIET - 0.01).measuredFrom());
        assertTrue(feed(20, Comparisons.COMPILER_LIMIT_PCT, Comparisons.COMPILER_LIMIT_PCT, Comparisons.COMPILER_LIMIT_PCT).leading());
    }

    @Test
    void noneAskedForMeasuresFromTheFirstRound() {
        LeadInRule rule = new LeadInRule(0, LeadInRule.QUIET_ROUNDS);
        assertEquals(0, rule.measuredFrom());
    }

    @Test
    void withoutCompilerReadingsItEndsAfterTheQuietCount() {
        LeadInRule rule = new LeadInRule(20, LeadInRule.QUIET_ROUNDS);
        for (int round = 0; rule.leading(); round++) {
            rule.block(round, "a#1", null, null);
            rule.roundEnded(round);
        }
        assertEquals(LeadInRule.QUIET_ROUNDS, rule.measuredFrom());
        assertTrue(rule.why().startsWith("no compiler threads to read"), rule.why());
    }

    @Test
    void oneShortCompileInOneBlockOfSixLeavesTheRoundQuiet() {
        LeadInRule rule = new LeadInRule(20, LeadInRule.QUIET_ROUNDS);
        for (int round = 0; rule.leading(); round++) {
            // a compile of 30 ms in one 1 s block: 3% there, 0.5% over the round's six blocks
            rule.block(round, "a#1", 3.0, 3.0);
            for (int jvm = 2; jvm <= 6; jvm++) {
                rule.block(round, "b#" + jvm, 0.0, 0.0);
            }
            rule.roundEnded(round);
        }
        assertEquals(LeadInRule.QUIET_ROUNDS, rule.measuredFrom());
    }

    @Test
    void aBlockWithoutReadingsDoesNotHideALoudOne() {
        LeadInRule rule = new LeadInRule(20, LeadInRule.QUIET_ROUNDS);
        for (int round = 0; round < 3; round++) {
            rule.block(round, "a#1", null, null);
            rule.block(round, "b#1", LOUD, LOUD);
            rule.roundEnded(round);
        }
        assertTrue(rule.leading(), "b's loud blocks keep the lead-in going, whatever a's missing readings");
    }
}
