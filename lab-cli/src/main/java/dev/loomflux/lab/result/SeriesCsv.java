package dev.loomflux.lab.result;

import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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

    private SeriesCsv() {
    }

    /** The known columns any row has, in their order, then any other in the order first seen; missing values stay empty. */
    @SuppressWarnings("unchecked")
    public static void write(Path file, Map<String, Object> result) {
        List<Map<String, Object>> series = (List<Map<String, Object>>) result.getOrDefault("series", List.of());
        List<String> lines = new ArrayList<>();
        if (!series.isEmpty()) {
            Set<String> present = new LinkedHashSet<>();
            series.forEach(row -> present.addAll(row.keySet()));
            List<String> columns = new ArrayList<>(COLUMNS.stream().filter(present::contains).toList());
            present.stream().filter(c -> !COLUMNS.contains(c)).forEach(columns::add);
            lines.add(String.join(",", columns));
            for (Map<String, Object> row : series) {
                List<String> cells = new ArrayList<>();
                for (String c : columns) {
                    Object v = row.get(c);
                    cells.add(v == null ? "" : v.toString());
                }
                lines.add(String.join(",", cells));
            }
        }
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
