package dev.loomflux.lab.report;

import dev.loomflux.lab.result.Tables;
import java.util.ArrayList;
import java.util.List;

/** report.md: the sections as GitHub-flavoured Markdown; a section without a title (the answer) goes straight under the report's. */
final class MarkdownReport {
    private MarkdownReport() {
    }

    static String render(String title, List<Section> sections) {
        StringBuilder sb = new StringBuilder("# ").append(title).append("\n");
        for (Section s : sections) {
            if (!s.title().isEmpty()) {
                sb.append("\n## ").append(s.title()).append("\n");
            }
            if (!s.paragraphs().isEmpty()) {
                sb.append("\n");
            }
            boolean afterList = false;
            boolean underBullet = false;
            for (Paragraph p : s.paragraphs()) {
                if (!p.listed() && afterList) {
                    sb.append("\n");
                }
                sb.append(switch (p.kind()) {
                    case BULLET -> "- " + p.text() + "\n";
                    // Under its bullet; under a headline a bullet of its own.
                    case DETAIL -> (underBullet ? "  - " : "- ") + p.text() + "\n";
                    case HEADLINE -> "**" + p.lead() + ":** " + p.text() + "\n\n";
                    case PLAIN -> p.text() + "\n\n";
                });
                afterList = p.listed();
                underBullet = p.kind() == Paragraph.Style.BULLET || underBullet && p.kind() == Paragraph.Style.DETAIL;
            }
            for (Table t : s.tables()) {
                if (t.rows().isEmpty()) {
                    continue;
                }
                if (!t.caption().isEmpty()) {
                    sb.append("\n**").append(t.caption()).append("**\n");
                }
                List<String[]> rows = new ArrayList<>();
                rows.add(t.header().toArray(String[]::new));
                t.rows().forEach(r -> rows.add(r.toArray(String[]::new)));
                sb.append("\n");
                Tables.markdown(rows).forEach(line -> sb.append(line).append("\n"));
            }
        }
        // Each part opens with the blank line it needs; where two meet, one is enough.
        return sb.toString().replaceAll("\n{3,}", "\n\n");
    }
}
