package dev.loomflux.lab.report;

import dev.loomflux.lab.result.Environment;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * report.html: one file that opens offline. ECharts and the chart script are inlined; the data goes
 * in as JSON inside a script element of type application/json, so it is never parsed as HTML; every
 * other user string is HTML-escaped.
 */
final class HtmlReport {
    /** Where org.mvnpm:echarts keeps the browser bundle; its version comes from the root pom. */
    static final String ECHARTS = "/META-INF/resources/_static/echarts/" + Environment.buildVersions().get("echarts") + "/dist/echarts.min.js";

    private HtmlReport() {
    }

    static String render(String title, List<Section> sections, String chartJson) {
        StringBuilder sb = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
                .append(escape(title)).append("</title>\n<style>").append(resource("/report/report.css")).append("</style>\n</head><body>\n<h1>")
                .append(escape(title)).append("</h1>\n");
        for (Section s : sections) {
            sb.append(s.title().isEmpty() ? "<section class=\"answer\">" : "<section><h2>" + escape(s.title()) + "</h2>").append("\n");
            paragraphs(sb, s.paragraphs());
            if (!s.charts().isEmpty()) {
                sb.append("<div class=\"charts\">");
                s.charts().forEach(id -> sb.append("<div class=\"chart\" id=\"").append(escape(id)).append("\"></div>"));
                sb.append("</div>\n");
            }
            for (Table t : s.tables()) {
                if (!t.rows().isEmpty()) {
                    sb.append(table(t));
                }
            }
            if (s.figure() != null) {
                sb.append(s.figure());
            }
            sb.append("</section>\n");
        }
        sb.append("<script type=\"application/json\" id=\"loomflux-data\">").append(jsonSafe(chartJson)).append("</script>\n<script>")
                .append(scriptSafe(resource(ECHARTS))).append("</script>\n<script>").append(resource("/report/report.js"))
                .append("</script>\n</body></html>\n");
        return sb.toString();
    }

    /** Bullets as a list; the details under a bullet as a list inside its item, under anything else as items of their own. */
    private static void paragraphs(StringBuilder sb, List<Paragraph> paragraphs) {
        boolean inList = false;
        for (int i = 0; i < paragraphs.size(); i++) {
            Paragraph p = paragraphs.get(i);
            if (p.listed() && !inList) {
                sb.append("<ul>");
            } else if (!p.listed() && inList) {
                sb.append("</ul>");
            }
            inList = p.listed();
            if (p.kind() == Paragraph.Style.BULLET) {
                sb.append("<li>").append(escape(p.text()));
                if (i + 1 < paragraphs.size() && paragraphs.get(i + 1).kind() == Paragraph.Style.DETAIL) {
                    sb.append("<ul class=\"detail\">");
                    while (i + 1 < paragraphs.size() && paragraphs.get(i + 1).kind() == Paragraph.Style.DETAIL) {
                        sb.append("<li>").append(escape(paragraphs.get(++i).text())).append("</li>");
                    }
                    sb.append("</ul>");
                }
                sb.append("</li>\n");
                continue;
            }
            sb.append(switch (p.kind()) {
                case HEADLINE -> "<p><strong>" + escape(p.lead() + ":") + "</strong> " + escape(p.text()) + "</p>\n";
                case DETAIL -> "<li class=\"detail\">" + escape(p.text()) + "</li>\n";
                default -> "<p>" + escape(p.text()) + "</p>\n";
            });
        }
        if (inList) {
            sb.append("</ul>");
        }
    }

    private static String table(Table t) {
        StringBuilder sb = new StringBuilder("<table>");
        if (!t.caption().isEmpty()) {
            sb.append("<caption>").append(escape(t.caption())).append("</caption>");
        }
        sb.append("<thead><tr>");
        t.header().forEach(h -> sb.append("<th>").append(escape(h)).append("</th>"));
        sb.append("</tr></thead><tbody>");
        for (List<String> row : t.rows()) {
            sb.append("<tr>");
            row.forEach(c -> sb.append("<td>").append(escape(c)).append("</td>"));
            sb.append("</tr>");
        }
        return sb.append("</tbody></table>\n").toString();
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** JSON with every markup character as a \\u escape: the page never carries a user's markup, even as data. */
    static String jsonSafe(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    }

    /** Inside a script element only "</" (and "<!--") can end or confuse it; JSON and JS allow "<\/". */
    static String scriptSafe(String s) {
        return s.replace("</", "<\\/").replace("<!--", "<\\!--");
    }

    private static String resource(String path) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path + " (the lab jar is incomplete)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
