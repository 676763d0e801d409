package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.main.Lab;
import dev.loomflux.lab.process.LabProcesses;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command's help prints cleanly (picocli reports an unescaped % in a description on System.err), the
 * command list sums up each command in one whole sentence, and run's options stand under their headings.
 */
class HelpTest {
    @ParameterizedTest
    @MethodSource("names")
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

    /** Each entry of ./lab --help's command list, its wrapped lines joined, is one sentence that ends where the summary does. */
    @Test
    void everyCommandsSummaryIsOneWholeSentence() {
        LabCli run = LabCli.of("--help");
        assertEquals(0, run.exitCode(), run.toString());
        List<String> summaries = new ArrayList<>();
        for (String line : run.out().substring(run.out().indexOf("Commands:\n") + "Commands:\n".length()).lines().toList()) {
            if (line.matches("  \\S.*")) {
                summaries.add(line.strip().replaceFirst("^\\S+\\s+", ""));
            } else {
                summaries.set(summaries.size() - 1, summaries.get(summaries.size() - 1) + " " + line.strip());
            }
        }
        assertEquals(commands().size(), summaries.size(), run.out());
        for (String summary : summaries) {
            assertTrue(summary.endsWith("."), "cut mid-sentence: " + summary);
            assertFalse(summary.substring(0, summary.length() - 1).matches(".*[.:] [A-Z].*"), "more than one sentence: " + summary);
        }
    }

    /** run --help (and sweep's and ab's, which take everything run takes) lists every option once, under five headings in this order. */
    @ParameterizedTest
    @ValueSource(strings = {"run", "sweep", "ab"})
    void runsOptionsStandUnderTheirHeadings(String command) {
        String out = LabCli.of(command, "--help").out();
        int at = 0;
        for (String heading : List.of("What to run:", "Load:", "Design and statistics:", "Machine:", "Output:")) {
            int next = out.indexOf("\n" + heading + "\n", at);
            assertTrue(next > at, heading + " missing or out of order:\n" + out);
            at = next;
        }
        for (OptionSpec option : commands().get(command).getCommandSpec().options()) {
            // An option's row starts near the margin; its description's lines are indented further.
            Pattern row = Pattern.compile(" {2,6}(-\\w, )?" + Pattern.quote(option.longestName()) + "([= ].*)?");
            long shown = out.lines().filter(line -> row.matcher(line).matches()).count();
            assertEquals(option.hidden() ? 0 : 1, shown, option.longestName() + " in:\n" + out);
        }
    }

    /** Every command's name but help's. */
    static java.util.stream.Stream<String> names() {
        return commands().keySet().stream().filter(n -> !n.equals("help"));
    }

    /** The lab's commands as ./lab makes them. */
    private static java.util.Map<String, CommandLine> commands() {
        try (LabProcesses processes = new LabProcesses()) {
            return new CommandLine(new Lab(), new Lab.Factory(processes)).getSubcommands();
        }
    }
}
