package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The real thing: real target jars on real ports, the real stub, real embedded PostgreSQL.
 * Each passing row in the verify table is one endpoint checked for status, type, body and timing.
 */
class VerifyIT {
    private static final Pattern ROW = Pattern.compile("^(\\S+)\\s{2,}(.+?)\\s{2,}(ok|FAIL)\\s{2}(.*)$", Pattern.MULTILINE);

    @Test
    void allBuiltInsAndATenThreadTomcatPassEveryCheck() {
        LabCli run = LabCli.of("verify", "--aot-cache", "--targets", "mvc,mvc-vt,webflux,webflux-vt,mvc-10",
                "--define", "mvc-10=mvc,server.tomcat.threads.max=10,server.tomcat.processor-cache=10");
        assertEquals(0, run.exitCode(), run.toString());
        List<String[]> rows = rows(run.out());
        for (String target : List.of("mvc", "mvc-vt", "webflux", "webflux-vt", "mvc-10")) {
            List<String> checks = rows.stream().filter(r -> r[0].equals(target)).map(r -> r[1]).collect(Collectors.toList());
            // plaintext, json, gateway, chain, chain at depth 0, 5 items, mixed, lognormal gateway, 2 cpu, config, 13 bad inputs, unknown path
            assertEquals(29, checks.size(), target + ": " + checks);
            assertTrue(checks.contains("chain delay=50 depth=0 >= 50 ms, no call"), target + ": " + checks);
            assertTrue(checks.contains("mixed work=1 page=2 size=3 delay=20 >= 20 ms"), target + ": " + checks);
            assertTrue(checks.contains("config"), target + ": " + checks);
        }
        assertTrue(rows.stream().allMatch(r -> r[2].equals("ok")), run.out());
        assertTrue(run.out().contains("verify: all 145 checks passed"), run.out());
        // Where each model serves its requests, as /config saw it: webflux-vt is mvc's code on Reactor Netty, on virtual threads.
        assertEquals("tomcat, request on a platform thread", where(rows, "mvc"), run.out());
        assertEquals("tomcat, request on a virtual thread", where(rows, "mvc-vt"), run.out());
        assertEquals("reactor-netty, request on a platform thread", where(rows, "webflux"), run.out());
        assertEquals("reactor-netty, request on a virtual thread", where(rows, "webflux-vt"), run.out());
        assertTrue(rows.stream().filter(r -> r[0].equals("webflux") && r[1].equals("config")).allMatch(r -> r[3].contains("'reactor-http-")), run.out());
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(),
                "verify left child processes behind");
    }

    @Test
    void aTargetThatCannotStartFailsWithItsLogTail() {
        LabCli run = LabCli.of("verify", "--targets", "broken", "--define", "broken=mvc,-XX:+NoSuchOptionAnywhere");
        assertEquals(1, run.exitCode(), run.toString());
        String startRow = rows(run.out()).stream().filter(r -> r[1].equals("start")).map(r -> r[2] + " " + r[3]).findFirst().orElse("");
        assertTrue(startRow.startsWith("FAIL broken exited with code 1 before it was ready"), run.out());
        assertTrue(run.out().contains("Unrecognized VM option 'NoSuchOptionAnywhere'"), run.out());
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count());
    }

    /** Verify checks that the targets are built before it opens the database, so these need the jars: an IT, not a unit test. */
    @Test
    void aDatabaseThatCannotBeUsedIsOneLineExitTwo() {
        LabCli unreachable = LabCli.of("verify", "--targets", "mvc", "--db-url", "jdbc:postgresql://127.0.0.1:1/nope");
        LabCli oracle = LabCli.of("verify", "--db-url", "jdbc:oracle:thin:@x:1521:db");
        for (LabCli run : List.of(unreachable, oracle)) {
            assertEquals(2, run.exitCode(), run.toString());
            assertEquals(1, run.err().strip().lines().count(), run.toString());
            assertFalse(run.err().contains("\tat "), run.toString());
        }
        assertTrue(unreachable.err().contains("cannot use database jdbc:postgresql://127.0.0.1:1/nope"), unreachable.toString());
        assertTrue(oracle.err().contains("only jdbc:postgresql://"), oracle.toString());
    }

    /** "tomcat, request on a virtual thread" from the config row's "12 ms; tomcat, request on a virtual thread '...'". */
    private static String where(List<String[]> rows, String target) {
        String detail = rows.stream().filter(r -> r[0].equals(target) && r[1].equals("config")).map(r -> r[3]).findFirst().orElse("");
        Matcher m = Pattern.compile("; (.+) '").matcher(detail);
        return m.find() ? m.group(1) : detail;
    }

    private static List<String[]> rows(String out) {
        Matcher m = ROW.matcher(out);
        List<String[]> rows = new java.util.ArrayList<>();
        while (m.find()) {
            rows.add(new String[] {m.group(1), m.group(2).trim(), m.group(3), m.group(4)});
        }
        assertFalse(rows.isEmpty(), "no table in:\n" + out);
        return rows;
    }
}
