package dev.loomflux.lab.report;

import dev.loomflux.lab.gate.Gate;
import dev.loomflux.lab.gate.History;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ./lab history: the regression gates of results/ab-history.jsonl side by side (docs/ci.md, "History"), per part and metric one
 * table and one forest plot, a row per gate in the order they ran: head over base with its 95% interval, in the report's style.
 */
public final class HistoryReport {
    private HistoryReport() {
    }

    /** Writes ab-history.md and ab-history.html into {@code dir}; returns the HTML's path. */
    public static Path write(List<History> gates, Path dir) {
        Map<String, List<Answer.Row>> rows = new LinkedHashMap<>();
        Map<String, List<List<String>>> cells = new LinkedHashMap<>();
        for (History h : gates) {
            for (Gate.Check c : h.checks()) {
                String key = c.where() + ": " + c.metric();
                Answer.Standing standing = switch (c.outcome()) {
                    case REGRESSION, IMPROVEMENT -> Answer.Standing.WINNER;
                    case EQUIVALENT -> Answer.Standing.EQUIVALENT;
                    case UNDECIDED -> Answer.Standing.UNDECIDED;
                };
                String text = c.describe(h.label() + "/" + h.base()) + " (" + h.runId() + ")";
                rows.computeIfAbsent(key, k -> new ArrayList<>()).add(new Answer.Row(c.where(), null, c.metric(), h.label(), h.base(),
                        c.ratio(), c.low(), c.high(), standing, c.outcome().name().toLowerCase(Locale.ROOT), text, null));
                cells.computeIfAbsent(key, k -> new ArrayList<>()).add(List.of(h.runId(), h.label(), h.base(), c.ratio() == null ? "" : String.format(Locale.ROOT, "%.3f", c.ratio()),
                        c.low() == null ? "" : String.format(Locale.ROOT, "%.3f-%.3f", c.low(), c.high()), String.valueOf(c.rounds()),
                        c.outcome().name().toLowerCase(Locale.ROOT), String.valueOf(h.exit())));
            }
        }
        List<Section> sections = new ArrayList<>();
        sections.add(new Section("", List.of(Paragraph.plain(gates.size() + " gates, oldest first: in each, head over base with its 95% interval from one "
                + "paired run (docs/ci.md). Ratios of different gates were measured at different times, and are read one against its own base, not "
                + "against each other.")), List.of(), List.of()));
        rows.forEach((key, r) -> sections.add(new Section(key, List.of(), List.of(new Table("", List.of("run", "head", "base", "head / base", "95% CI",
                "rounds", "verdict", "exit"), cells.get(key))), List.of(), Forest.svg(r))));
        try {
            Files.writeString(dir.resolve("ab-history.md"), MarkdownReport.render("Regression gates", sections), StandardCharsets.UTF_8);
            Path html = dir.resolve("ab-history.html");
            Files.writeString(html, HtmlReport.render("Regression gates", sections, "{\"charts\":[]}"), StandardCharsets.UTF_8);
            return html;
        } catch (IOException e) {
            throw new UncheckedIOException("history: writing into " + dir, e);
        }
    }
}
