package dev.loomflux.lab.report;

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
            for (String p : s.paragraphs()) {
                boolean bullet = p.startsWith("- ");
                if (!bullet && afterBullet) {
                    sb.append("\n");
                }
                sb.append(bullet ? p : p.endsWith(":") ? "**" + p + "**" : p).append(bullet ? "\n" : "\n\n");
                afterBullet = bullet;
            }
            for (Table t : s.tables()) {
                if (t.rows().isEmpty()) {
                    continue;
                }
                if (!t.caption().isEmpty()) {
                    sb.append("\n**").append(t.caption()).append("**\n");
                }
                sb.append("\n").append(row(t.header())).append("|").append("---|".repeat(t.header().size())).append("\n");
                t.rows().forEach(r -> sb.append(row(r)));
            }
        }
        return sb.toString();
    }

    private static String row(List<String> cells) {
        StringBuilder sb = new StringBuilder("|");
        cells.forEach(c -> sb.append(' ').append(c.replace("|", "\\|").replace("\n", " ")).append(" |"));
        return sb.append("\n").toString();
    }
}
