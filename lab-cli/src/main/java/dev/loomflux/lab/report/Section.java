package dev.loomflux.lab.report;

import java.util.List;
import java.util.Set;

/**
 * One part of a report: a title (none for the answer that opens it), paragraphs, tables, for HTML
 * the ids of the charts that belong here, and a figure the report draws itself as inline SVG (the
 * forest plot of the comparisons), or null.
 */
record Section(String title, List<Paragraph> paragraphs, List<Table> tables, List<String> charts, String figure) {
    Section {
        paragraphs = List.copyOf(paragraphs);
        tables = List.copyOf(tables);
        charts = List.copyOf(charts);
    }

    Section(String title, List<Paragraph> paragraphs, List<Table> tables, List<String> charts) {
        this(title, paragraphs, tables, charts, null);
    }

    /** Only the charts that have data: a chart without a point would draw its axes and nothing else. */
    Section keepCharts(Set<String> drawn) {
        return new Section(title, paragraphs, tables, charts.stream().filter(drawn::contains).toList(), figure);
    }
}
