package dev.loomflux.lab.gate;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.result.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The regression gates run on this machine, one JSON line each in results/ab-history.jsonl, appended as each gate ends
 * (docs/ci.md, "History"): what was compared and what each comparison said, for ./lab history to set side by side.
 *
 * @param label what the head was, as the user names it (--label, e.g. a commit); else HEAD as given
 * @param exit  the gate's exit code
 */
public record History(String runId, String finishedAt, String base, String head, String label, double marginPct, int exit, List<Gate.Check> checks,
                      List<Gate.Check> aa) {
    public static final String FILE = "ab-history.jsonl";

    public History {
        checks = checks == null ? List.of() : List.copyOf(checks);
        aa = aa == null ? List.of() : List.copyOf(aa);
    }

    /** Appends one gate's line to the file, creating it. */
    public static void append(Path file, History h) {
        try {
            Files.writeString(file, Json.line(h) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("ab: appending to " + file, e);
        }
    }

    /** Every gate in the file, oldest first; a line that is not a gate's is a one-line error naming the file and line. */
    public static List<History> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException(file + ": cannot read it (" + e.getMessage() + "); ./lab ab appends a line to it per gate");
        }
        List<History> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                History h = Json.read(lines.get(i), History.class);
                if (h.runId() == null || h.checks().stream().anyMatch(c -> c.metric() == null || c.outcome() == null)) {
                    throw new IOException("no run_id, or a check without its metric or outcome");
                }
                out.add(h);
            } catch (IOException e) {
                throw new UsageException(file + ":" + (i + 1) + ": not a gate's line (" + e.getMessage().lines().findFirst().orElse("") + ")");
            }
        }
        return out;
    }
}
