package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ./lab ab on the built-in targets: a build known to be slower is a regression, the same build twice never is. The head does
 * its /cpu work 20% over (-Dloomflux.cpu.extra-work-pct), 10,000 SHA-256 rounds a request, so that the work is most of the
 * request's cost and its throughput falls by nearly 20% (at the default 1,000 the rest of the request is half its cost, the
 * fall about 12%, and a CI run of 2026-12-03 left it undecided after 10 rounds). Both runs take about 5 minutes each with the
 * defaults: they are in ./check long, and their figures in docs/ci.md.
 */
class AbIT {
    @Test
    @Tag("long") // ./check long, not CI
    void aTwentyPercentSlowerBuildIsARegression() throws Exception {
        LabCli run = LabCli.of("ab", "mvc", "slow", "--define", "slow=mvc,-Dloomflux.cpu.extra-work-pct=20", "--scenario", "cpu", "--work", "10000",
                "--aot-cache");
        assertEquals(1, run.exitCode(), run.toString());
        // CPU per request is the work itself; throughput at 10,000 rounds counts about 25 requests a user a block, too few to
        // tell it within 5% (run 20261203-035057: CPU per request and median latency regressions, throughput undecided on that).
        assertTrue(run.out().lines().anyMatch(l -> l.startsWith("ab cpu-work10000 CPU per request: head/base ") && l.endsWith(": regression")), run.out());
        assertTrue(run.out().lines().anyMatch(l -> l.startsWith("ab A/A cpu-work10000 throughput: base#2/base#1 ") && !l.endsWith(": regression")
                && !l.endsWith(": improvement")), run.out());
        String junit = Files.readString(run.dir().resolve("ab-junit.xml"));
        assertTrue(junit.contains("type=\"regression\""), junit);
        String md = Files.readString(run.dir().resolve("ab.md"));
        assertTrue(md.contains("| cpu-work10000 | CPU per request |") && md.contains("| regression |"), md);
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }

    @Test
    @Tag("long") // ./check long, not CI
    void theSameBuildTwiceIsNoRegression() throws Exception {
        LabCli run = LabCli.of("ab", "mvc", "mvc", "--scenario", "cpu", "--work", "10000", "--aot-cache");
        assertNotEquals(1, run.exitCode(), run.toString());
        assertFalse(run.out().lines().anyMatch(l -> l.startsWith("ab cpu-work10000") && (l.endsWith(": regression") || l.endsWith(": improvement"))), run.out());
        assertTrue(Files.readString(run.dir().resolve("ab-junit.xml")).contains("failures=\"0\""));
    }

    @Test
    void badBuildsAreOneLineErrors() {
        LabCli missing = LabCli.of("ab", "mvc", "no-such.jar");
        assertEquals(2, missing.exitCode(), missing.toString());
        assertEquals("lab: HEAD no-such.jar: no such jar file", missing.err().strip().lines().reduce((a, b) -> b).orElse(""), missing.toString());
        LabCli unknown = LabCli.of("ab", "mvc", "nope");
        assertEquals(2, unknown.exitCode(), unknown.toString());
        assertTrue(unknown.err().contains("nope"), unknown.toString());
        LabCli oneSet = LabCli.of("ab", "mvc", "mvc", "--sets", "1");
        assertEquals(2, oneSet.exitCode(), oneSet.toString());
        assertTrue(oneSet.err().contains("--sets 1: ab needs 2 or more sets"), oneSet.toString());
        LabCli margin = LabCli.of("ab", "mvc", "mvc", "--margin", "0%");
        assertEquals(2, margin.exitCode(), margin.toString());
        assertTrue(margin.err().contains("--margin 0%"), margin.toString());
        // A --define builds on the experiment file's targets: one on a target of neither is named, the file's among the known.
        LabCli onFile = LabCli.of("ab", "own-mvc", "slow", "own-app", "--define", "slow=nope,-XX:TieredStopAtLevel=1");
        assertEquals(2, onFile.exitCode(), onFile.toString());
        assertTrue(onFile.err().contains("unknown target 'nope'") && onFile.err().contains("own-mvc-vt"), onFile.toString());
        // ... and one on the file's target resolves: the next check, the sets, is what refuses the command.
        LabCli defined = LabCli.of("ab", "own-mvc", "slow", "own-app", "--define", "slow=own-mvc,-XX:TieredStopAtLevel=1", "--sets", "1");
        assertEquals(2, defined.exitCode(), defined.toString());
        assertTrue(defined.err().contains("--sets 1: ab needs 2 or more sets"), defined.toString());
        // A file that names built-in targets: they are the built-ins, not a second declaration of them.
        LabCli builtIns = LabCli.of("ab", "mvc", "webflux", "seed-003-gateway-latency", "--sets", "1");
        assertTrue(builtIns.err().contains("--sets 1: ab needs 2 or more sets"), builtIns.toString());
        assertTrue(missing.made().isEmpty() && unknown.made().isEmpty() && oneSet.made().isEmpty() && onFile.made().isEmpty() && defined.made().isEmpty()
                && builtIns.made().isEmpty());
    }

    /** A build that will not start: bad input, named, with its log's last lines, as soon as the JVMs are up; nothing left running. */
    @Test
    void aBuildThatWillNotStartIsNamedWithItsLog() {
        LabCli broken = LabCli.of("ab", "mvc", "broken", "--define", "broken=mvc,-XX:+NoSuchFlag");
        assertEquals(2, broken.exitCode(), broken.toString());
        String first = broken.err().lines().filter(l -> l.startsWith("lab: ")).findFirst().orElse("");
        assertTrue(first.startsWith("lab: HEAD broken did not run: head exited with code 1 before it was ready; last lines of "), broken.toString());
        assertTrue(broken.err().contains("Unrecognized VM option 'NoSuchFlag'"), broken.toString());
        assertTrue(broken.out().contains("nothing to compare: only base started; no rounds"), broken.toString());
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }
}
