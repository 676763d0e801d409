package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Bad input gets one line naming the culprit and exit code 2, never a stack trace. */
class BadInputTest {
    private static void assertOneLineError(LabRun run, String expected) {
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().contains(expected), run.toString());
        assertEquals(1, run.err().strip().lines().count(), run.toString());
        assertFalse(run.err().contains("\tat "), run.toString());
    }

    @Test
    void unknownTarget() {
        assertOneLineError(LabRun.of("verify", "--targets", "mvc,tomcat"), "--targets: unknown target 'tomcat'");
    }

    @Test
    void malformedDefinition() {
        assertOneLineError(LabRun.of("verify", "--define", "mvc-10"), "--define mvc-10: expected NAME=BASE");
    }

    @Test
    void unknownOption() {
        assertOneLineError(LabRun.of("verify", "--tragets", "mvc"), "Unknown options: '--tragets'");
    }

    @Test
    void badHeap() {
        assertOneLineError(LabRun.of("verify", "--heap", "lots"), "--heap lots");
    }

    @Test
    void javaTooOldOrMissing() {
        assertOneLineError(LabRun.of("verify", "--java", "/nonexistent/jdk"), "--java /nonexistent/jdk: not a JDK");
    }

    @Test
    void unreachableDatabaseIsNamed() {
        assertOneLineError(LabRun.of("verify", "--targets", "mvc", "--db-url", "jdbc:postgresql://127.0.0.1:1/nope"),
                "cannot use database jdbc:postgresql://127.0.0.1:1/nope");
    }

    @Test
    void unsupportedDatabase() {
        assertOneLineError(LabRun.of("verify", "--db-url", "jdbc:oracle:thin:@x:1521:db"),
                "only jdbc:postgresql://");
    }

    @Test
    void helpListsCommands() {
        LabRun run = LabRun.of("--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("verify"), run.out());
    }
}
