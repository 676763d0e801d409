package dev.loomflux.lab.report;

import java.util.List;

/** A table of a report: the same cells become Markdown and HTML. */
record Table(String caption, List<String> header, List<List<String>> rows) {
    Table {
        header = List.copyOf(header);
        rows = rows.stream().map(List::copyOf).toList();
    }
}
