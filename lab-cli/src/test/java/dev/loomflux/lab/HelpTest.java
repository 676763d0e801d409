package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every command's help prints cleanly: picocli reports an unescaped % in a description on System.err. */
class HelpTest {
    @ParameterizedTest
    @ValueSource(strings = {"list", "verify", "run", "capacity", "compare", "report", "calibrate", "clean"})
    void helpHasNoWarnings(String command) {
        PrintStream original = System.err;
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        LabCli run;
        try {
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            run = LabCli.of(command, "--help");
        } finally {
            System.setErr(original);
        }
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().startsWith("Usage: lab " + command), run.out());
        String warnings = stderr.toString(StandardCharsets.UTF_8) + run.err();
        assertTrue(warnings.isEmpty(), command + " --help printed:\n" + warnings);
    }
}
