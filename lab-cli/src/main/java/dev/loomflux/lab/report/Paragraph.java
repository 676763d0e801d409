package dev.loomflux.lab.report;

/**
 * One paragraph of a report, typed so that each renderer knows its shape without reading markup back
 * out of the text: a scenario name or a user's path may contain "**" or start with "- ".
 *
 * @param lead the bold lead ("json", "Sweep") of a headline, else null
 */
record Paragraph(Style kind, String lead, String text) {
    /** DETAIL: the line under a headline or bullet that says why, so the line above reads at a glance. */
    enum Style { PLAIN, HEADLINE, BULLET, DETAIL }

    static Paragraph plain(String text) {
        return new Paragraph(Style.PLAIN, null, text);
    }

    /** "json: mvc ahead of ...", its lead in bold. */
    static Paragraph headline(String lead, String text) {
        return new Paragraph(Style.HEADLINE, lead, text);
    }

    static Paragraph bullet(String text) {
        return new Paragraph(Style.BULLET, null, text);
    }

    static Paragraph detail(String text) {
        return new Paragraph(Style.DETAIL, null, text);
    }

    /** The paragraph as one line of plain text: "json: mvc ahead of ...". */
    String asText() {
        return kind == Style.HEADLINE ? lead + ": " + text : text;
    }

    boolean listed() {
        return kind == Style.BULLET || kind == Style.DETAIL;
    }
}
