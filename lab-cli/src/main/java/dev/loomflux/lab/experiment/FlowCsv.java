package dev.loomflux.lab.experiment;

import java.nio.file.Path;
import java.util.List;

/**
 * A flow's rows of data from a CSV file: its header names the variables, each further line is a row.
 * A user takes one row for all its iterations ({@link Per#USER}: user k reads row k, round the file),
 * or each iteration takes the next row ({@link Per#ITERATION}).
 *
 * @param file the file, absolute: the experiment file names it relative to itself
 */
public record FlowCsv(Path file, Per per, List<String> columns, List<List<String>> rows) {
    public enum Per { USER, ITERATION }

    public FlowCsv {
        columns = List.copyOf(columns);
        rows = rows.stream().map(List::copyOf).toList();
        int width = columns.size();
        if (rows.isEmpty() || rows.stream().anyMatch(r -> r.size() != width)) {
            throw new IllegalArgumentException("rows of " + columns.size() + " columns: " + file);
        }
    }
}
