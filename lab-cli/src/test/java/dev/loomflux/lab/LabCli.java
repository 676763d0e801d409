package dev.loomflux.lab;

import dev.loomflux.lab.main.Lab;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Runs the lab CLI in-process, as ./lab would, capturing what it prints and the run directories it made under results/.
 *
 * @param made the run directories the command made, found in results/ (never on its console): one for a run, none for a refusal
 */
record LabCli(int exitCode, String out, String err, List<Path> made) {
    static LabCli of(String... args) {
        Set<Path> before = Results.runDirs();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lab.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new LabCli(code, out.toString(), err.toString(), Results.madeSince(before));
    }

    /** The run's directory; fails the test, quoting the command's output, unless it made exactly one. */
    Path dir() {
        return Results.one(made, this);
    }

    /** The run's results.json, as the lab's own records. */
    RunRecord record() throws IOException {
        return Results.record(dir());
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
    }
}
