package dev.loomflux.lab.report;

import java.util.List;

/**
 * One part of a report: a title, paragraphs (plain text, or bullet lines starting with "- "), tables,
 * and for HTML the ids of the charts that belong here.
 */
record Section(String title, List<String> paragraphs, List<Table> tables, List<String> charts) {
    Section {
        paragraphs = List.copyOf(paragraphs);
        tables = List.copyOf(tables);
        charts = List.copyOf(charts);
    }
}
