package dev.loomflux.lab.result;

import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The per-second series of one results.json entry as CSV, for spreadsheets and plotting tools. */
public final class SeriesCsv {
    private SeriesCsv() {
    }

    /** Columns are the keys of the first row, in order; missing values stay empty. */
    @SuppressWarnings("unchecked")
    public static void write(Path file, Map<String, Object> result) {
        List<Map<String, Object>> series = (List<Map<String, Object>>) result.getOrDefault("series", List.of());
        List<String> lines = new ArrayList<>();
        if (!series.isEmpty()) {
            List<String> columns = new ArrayList<>(series.get(0).keySet());
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
