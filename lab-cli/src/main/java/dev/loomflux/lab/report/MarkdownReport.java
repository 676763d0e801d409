package dev.loomflux.lab.report;

import dev.loomflux.lab.result.Tables;
import java.util.ArrayList;
import java.util.List;

/** report.md: the sections as GitHub-flavoured Markdown. */
final class MarkdownReport {
    private MarkdownReport() {
    }

    static String render(String title, List<Section> sections) {
        StringBuilder sb = new StringBuilder("# ").append(title).append("\n");
        for (Section s : sections) {
            sb.append("\n## ").append(s.title()).append("\n\n");
            boolean afterBullet = false;
            for (Paragraph p : s.paragraphs()) {
                boolean bullet = p.kind() == Paragraph.Style.BULLET;
                if (!bullet && afterBullet) {
                    sb.append("\n");
                }
                sb.append(switch (p.kind()) {
                    case BULLET -> "- " + p.text() + "\n";
                    case HEADLINE -> "**" + p.lead() + ":** " + p.text() + "\n\n";
                    case PLAIN -> p.text() + "\n\n";
                });
                afterBullet = bullet;
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
        return sb.toString();
    }
}
