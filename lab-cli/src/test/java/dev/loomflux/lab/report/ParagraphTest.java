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

    @Test
    void theConsoleHeadlineIsTheLeadAndItsText() {
        assertEquals("path-a**b: mvc ahead.", SECTIONS.get(0).paragraphs().get(0).asText());
        assertEquals("- not a bullet, **not bold**", SECTIONS.get(0).paragraphs().get(1).asText());
    }
}
