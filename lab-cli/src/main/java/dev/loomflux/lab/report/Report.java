package dev.loomflux.lab.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.result.RunRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** Renders report.md and report.html of a run directory from its record (and the .hlog files beside it). */
public final class Report {
    private Report() {
    }

    /** From the results.json in {@code runDir}, as ./lab report re-renders it. @return the report.html path */
    public static Path write(Path runDir) {
        return write(runDir, read(runDir));
    }

    /** From the record in memory, as the run that made it has it. @return the report.html path */
    public static Path write(Path runDir, RunRecord record) {
        String title = "loomflux report: " + (record.header().runId() == null ? runDir.getFileName().toString() : record.header().runId());
        List<Section> sections = ReportContent.of(record).stream().filter(Objects::nonNull).toList();
        Path html = runDir.resolve("report.html");
        try {
            Files.writeString(runDir.resolve("report.md"), MarkdownReport.render(title, sections), StandardCharsets.UTF_8);
            ObjectNode charts = ChartData.of(record, runDir);
            Set<String> drawn = ChartData.ids(charts);
            Files.writeString(html, HtmlReport.render(title, sections.stream().map(s -> s.keepCharts(drawn)).toList(), ChartData.json(charts)),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LabException("cannot write the report into " + runDir + ": " + e.getMessage(), e);
        }
        return html;
    }

    /** The executive summary's headline per scenario, as plain text for the console: "items: mvc serves ...". */
    public static List<String> headlines(Path runDir) {
        return headlines(read(runDir));
    }

    /** The same from the record in memory. */
    public static List<String> headlines(RunRecord record) {
        return Findings.headlines(record).stream().map(Paragraph::asText).toList();
    }

    private static RunRecord read(Path runDir) {
        Path results = runDir.resolve("results.json");
        if (!Files.isRegularFile(results)) {
            throw new UsageException(runDir + ": no results.json (expected a run directory under results/)");
        }
        try {
            return RunRecord.read(results);
        } catch (IOException e) {
            throw new UsageException(results + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }
}
