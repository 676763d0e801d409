package dev.loomflux.lab.experiment;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
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

    /** More rows than this are refused: every driver holds them all in memory. */
    public static final int MAX_ROWS = 1_000_000;

    public FlowCsv {
        columns = List.copyOf(columns);
        rows = rows.stream().map(List::copyOf).toList();
        int width = columns.size();
        if (rows.isEmpty() || rows.stream().anyMatch(r -> r.size() != width)) {
            throw new IllegalArgumentException("rows of " + columns.size() + " columns: " + file);
        }
    }

    /**
     * Reads a CSV file (RFC 4180 quoting; blank lines skipped): a header of variable names, then rows.
     *
     * @throws IllegalArgumentException saying what is wrong with the file's content, naming it
     */
    public static FlowCsv read(Path file, Per per) throws IOException {
        List<List<String>> lines = new ArrayList<>();
        CsvMapper mapper = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY);
        try (MappingIterator<List<String>> it = mapper.readerForListOf(String.class).readValues(file.toFile())) {
            while (it.hasNext()) {
                List<String> line = it.next();
                if (!(line.size() == 1 && line.get(0).isEmpty())) {
                    lines.add(line);
                }
                if (lines.size() > MAX_ROWS + 1) {
                    throw new IllegalArgumentException(file + " has more than " + MAX_ROWS + " rows");
                }
            }
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IOException(e.getMessage(), e);
        }
        if (lines.size() < 2) {
            throw new IllegalArgumentException(file + " needs a header line naming its columns and at least one row");
        }
        List<String> columns = lines.get(0).stream().map(String::strip).toList();
        for (String c : columns) {
            if (!Template.NAME.matcher(c).matches()) {
                throw new IllegalArgumentException(file + ": column '" + c + "' in the header is not a variable name: a letter, then letters, digits or '_'");
            }
        }
        if (new LinkedHashSet<>(columns).size() != columns.size()) {
            throw new IllegalArgumentException(file + ": the header names a column twice");
        }
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).size() != columns.size()) {
                throw new IllegalArgumentException(file + ": line " + (i + 1) + " has " + lines.get(i).size() + " values, the header " + columns.size());
            }
        }
        return new FlowCsv(file, per, columns, lines.subList(1, lines.size()));
    }
}
