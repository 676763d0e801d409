package dev.loomflux.lab.report;

import java.util.List;

/**
 * One part of a report: a title, paragraphs, tables, and for HTML the ids of the charts that belong here.
 */
record Section(String title, List<Paragraph> paragraphs, List<Table> tables, List<String> charts) {
    Section {
        paragraphs = List.copyOf(paragraphs);
        tables = List.copyOf(tables);
        charts = List.copyOf(charts);
    }
}
