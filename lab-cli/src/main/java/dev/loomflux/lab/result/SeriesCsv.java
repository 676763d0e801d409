package dev.loomflux.lab.result;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The per-second series of one results.json entry as CSV, for spreadsheets and plotting tools. */
public final class SeriesCsv {
    /**
     * The columns in the order of docs/results-schema.md, whatever order the row's figures were added
     * in: the load's, the open model's, the target's, the support processes', the cgroup's.
     */
    static final List<String> COLUMNS = List.of("t", "rps", "p50", "p99", "errors", "users", "intended", "sent", "cpu_pct", "rss_mb", "threads",
            "fds", "jit_compiles", "jit_ms", "jit_cpu_ms", "canary_us", "stub_cpu_pct", "db_cpu_pct", "cgroup_cpu_pct", "throttled_pct",
            "cgroup_memory_mb");

    /** Written whatever the rows hold: the load's and the target's; the others only when some row has them (open model, cgroup). */
    private static final Set<String> ALWAYS = Set.of("t", "rps", "p50", "p99", "errors", "users", "cpu_pct", "rss_mb", "threads", "fds",
            "jit_compiles", "jit_ms", "jit_cpu_ms", "canary_us", "stub_cpu_pct", "db_cpu_pct");

    private SeriesCsv() {
    }

    /** One line per second; a figure a second does not have stays empty. */
    public static void write(Path file, List<Result.PerSecond> series) {
        List<JsonNode> rows = series.stream().map(Json::tree).toList();
        List<String> columns = COLUMNS.stream().filter(c -> ALWAYS.contains(c) || rows.stream().anyMatch(r -> r.has(c))).toList();
        List<String> lines = new ArrayList<>();
        if (!rows.isEmpty()) {
            lines.add(String.join(",", columns));
            for (JsonNode row : rows) {
                lines.add(String.join(",", columns.stream().map(c -> row.has(c) ? row.get(c).asText() : "").toList()));
            }
        }
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
