package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Both renderers take a paragraph's shape from its kind, never from its text: user strings may look like markup. */
class ParagraphTest {
    private static final List<Section> SECTIONS = List.of(new Section("Summary", List.of(
            Paragraph.headline("path-a**b", "mvc ahead."),
            Paragraph.plain("- not a bullet, **not bold**"),
            Paragraph.bullet("Errors: none")), List.of(), List.of()));

    @Test
    void markdownRendersEachKindOnce() {
        assertEquals("# t\n\n## Summary\n\n**path-a**b:** mvc ahead.\n\n- not a bullet, **not bold**\n\n- Errors: none\n",
                MarkdownReport.render("t", SECTIONS));
    }

    @Test
    void htmlBoldsOnlyTheLeadAndListsOnlyBullets() {
        String html = HtmlReport.render("t", SECTIONS, "{}");
        assertTrue(html.contains("<p><strong>path-a**b:</strong> mvc ahead.</p>\n<p>- not a bullet, **not bold**</p>\n<ul><li>Errors: none</li>\n</ul>"), html);
    }

    /** Why a line says what it says goes one line below it: nested under a bullet, a bullet of its own under a headline. */
    @Test
    void aDetailGoesUnderItsLine() {
        List<Section> sections = List.of(new Section("Summary", List.of(Paragraph.headline("json", "undecided."), Paragraph.detail("drifted."),
                Paragraph.bullet("p99: undecided."), Paragraph.detail("sets disagree."), Paragraph.bullet("Errors: none")), List.of(), List.of()));
        assertEquals("# t\n\n## Summary\n\n**json:** undecided.\n\n- drifted.\n- p99: undecided.\n  - sets disagree.\n- Errors: none\n",
                MarkdownReport.render("t", sections));
        assertTrue(HtmlReport.render("t", sections, "{}").contains("<p><strong>json:</strong> undecided.</p>\n<ul><li class=\"detail\">drifted.</li>\n"
                + "<li>p99: undecided.<ul class=\"detail\"><li>sets disagree.</li></ul></li>\n<li>Errors: none</li>\n</ul>"));
    }

    /** The answer that opens a report has no heading of its own: it goes straight under the title. */
    @Test
    void aSectionWithoutTitleHasNoHeading() {
        List<Section> sections = List.of(new Section("", List.of(Paragraph.plain("Nothing compared.")), List.of(), List.of()),
                new Section("Summary", List.of(), List.of(new Table("", List.of("a"), List.of(List.of("1")))), List.of()));
        assertEquals("# t\n\nNothing compared.\n\n## Summary\n\n| a |\n|---|\n| 1 |\n", MarkdownReport.render("t", sections));
        assertTrue(HtmlReport.render("t", sections, "{}").contains("<h1>t</h1>\n<section class=\"answer\">\n<p>Nothing compared.</p>\n</section>\n"
                + "<section><h2>Summary</h2>\n<table>"));
    }

    @Test
    void theConsoleHeadlineIsTheLeadAndItsText() {
        assertEquals("path-a**b: mvc ahead.", SECTIONS.get(0).paragraphs().get(0).asText());
        assertEquals("- not a bullet, **not bold**", SECTIONS.get(0).paragraphs().get(1).asText());
    }
}
