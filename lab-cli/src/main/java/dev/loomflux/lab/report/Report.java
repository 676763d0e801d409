package dev.loomflux.lab.report;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.result.RunRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Renders report.md and report.html of a run directory from its results.json (and .hlog files). */
public final class Report {
    private Report() {
    }

    /** @return the report.html path */
    public static Path write(Path runDir) {
        RunRecord root = read(runDir);
        String title = "loomflux report: " + (root.runId() == null ? runDir.getFileName().toString() : root.runId());
        List<Section> sections = ReportContent.of(root);
        Path html = runDir.resolve("report.html");
        try {
            Files.writeString(runDir.resolve("report.md"), MarkdownReport.render(title, sections), StandardCharsets.UTF_8);
            Files.writeString(html, HtmlReport.render(title, sections, ChartData.of(root, runDir)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LabException("cannot write the report into " + runDir + ": " + e.getMessage(), e);
        }
        return html;
    }

    /** The executive summary's headline per scenario, as plain text for the console: "items: mvc serves ...". */
    public static List<String> headlines(Path runDir) {
        RunRecord root = read(runDir);
        return ReportContent.of(root).get(0).paragraphs().stream().filter(p -> p.kind() == Paragraph.Style.HEADLINE)
                .map(Paragraph::asText).toList();
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
