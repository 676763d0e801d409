package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.result.Results;
import dev.loomflux.lab.result.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.html in real headless Chromium: it loads offline without console errors, every chart has drawn, and user strings stay text. */
class ReportHtmlIT {
    @TempDir
    Path dir;

    @Test
    void opensOfflineAndDrawsEveryChartWithoutConsoleErrors() throws Exception {
        ReportMarkdownTest.copyFixture(dir);
        // A hostile target name must come out as text, in tables and charts alike.
        String evil = "<img src=x onerror=alert(1)>";
        ObjectNode root = (ObjectNode) Results.tree(dir.resolve("results.json"));
        ((ObjectNode) root.path("results").get(0)).put("target", evil);
        ((ObjectNode) root.path("experiment")).put("name", "</script><script>alert(2)</script>");
        Results.write(dir.resolve("results.json"), root);
        Path html = Report.write(dir);
        String page = Files.readString(html);
        assertFalse(page.contains(evil), "raw target name in the HTML");
        assertTrue(page.contains("&lt;img src=x onerror=alert(1)&gt;"), "escaped target name");
        assertFalse(page.contains("</script><script>alert(2)"), "script-breaking experiment name");
        assertFalse(page.contains("src=\"http") || page.contains("href=\"http"), "nothing fetched from the network");
        assertTrue(page.contains("<p><strong>plaintext:</strong> &lt;img src=x onerror=alert(1)&gt; had the highest throughput (5481 rps)"), "headline");

        try (Browser browser = Browser.open(html)) {
            @SuppressWarnings("unchecked")
            List<Object> charts = (List<Object>) browser.script(
                    "return Array.from(document.querySelectorAll('.chart')).map(function (el) {"
                            + " var c = echarts.getInstanceByDom(el); var canvas = el.querySelector('canvas');"
                            + " var series = c ? c.getOption().series : [];"
                            + " var points = series.reduce(function (n, s) { return n + s.data.length; }, 0);"
                            + " var marks = series.filter(function (s) { return s.markLine; }).map(function (s) { return s.markLine.data[0].xAxis; });"
                            + " var end; try { end = Math.round(c.getModel().getComponent('xAxis', 0).axis.scale.getExtent()[1]); } catch (e) { end = -1; }"
                            + " return el.id + ' ' + (canvas ? canvas.width * canvas.height : 0) + ' ' + series.length + ' ' + points"
                            + " + ' [' + marks.join(',') + '] ' + end; });");
            assertEquals(18, charts.size(), "2 scenarios x 9 charts: " + charts);
            // Warmup charts: every second of each target's warmup series, a mark where the rule held
            // (mvc-vt plaintext never got there; webflux gateway-delay20 had no JIT counters).
            Map<String, String> warmup = Map.of("s0-warmup", "85 [24,21]", "s0-warmup-jit", "85 [24,21]",
                    "s1-warmup", "81 [22,26,33]", "s1-warmup-jit", "48 [22,26,33]");
            for (Object c : charts) {
                String[] f = c.toString().split(" ");
                assertTrue(Long.parseLong(f[1]) > 10_000, "canvas drawn: " + c);
                // One line per target; the latency chart has p50 and p99 for each.
                assertEquals(f[0].endsWith("-latency") ? "6" : "3", f[2], "series per target: " + c);
                assertTrue(Long.parseLong(f[3]) >= 9, "points plotted: " + c);
                assertEquals(warmup.getOrDefault(f[0], f[3] + " []"), f[3] + " " + f[4], "warmup points and marks: " + c);
                if (warmup.containsKey(f[0])) {
                    // webflux became steady at 33 s, one second past its last point: the axis still reaches the mark.
                    assertTrue(Long.parseLong(f[5]) >= (f[0].startsWith("s1") ? 33 : 39), "x axis end: " + c);
                }
            }
            assertEquals(4, charts.stream().filter(c -> warmup.containsKey(c.toString().split(" ")[0])).count(), "warmup charts: " + charts);
            assertEquals(0L, browser.script("return document.querySelectorAll('img[src=x]').length"), "the hostile name became an element");
            browser.screenshot(Path.of("target/report-screenshot.png"));
        }
    }

    /**
     * A paired run opens with its answer: the matrix is the page's first table, above every section, and
     * under it the forest plot draws one row per comparison, each ratio on its drawn interval, beside
     * the ±5% band; every chart below has points (the per-block series carry no threads or open files).
     */
    @Test
    void aPairedRunDrawsAForestRowPerComparison() throws Exception {
        ReportMarkdownTest.copyFixture(ReportMarkdownTest.PAIRED, dir);
        int comparisons = RunRecord.read(dir.resolve("results.json")).paired().comparisons().size();
        assertEquals(12, comparisons, "3 pairs x 4 metrics in the fixture");
        Path html = Report.write(dir);
        try (Browser browser = Browser.open(html)) {
            @SuppressWarnings("unchecked")
            List<Object> rows = (List<Object>) browser.script(
                    "return Array.from(document.querySelectorAll('#forest g.row')).map(function (g) {"
                            + " var line = g.querySelector('line.ci'); var dot = g.querySelector('circle');"
                            + " if (!line || !dot) { return g.getAttribute('data-label') + '|0|false'; }"
                            + " var ci = line.getBoundingClientRect(); var d = dot.getBoundingClientRect(); var mid = (d.left + d.right) / 2;"
                            + " return g.getAttribute('data-label') + '|' + Math.round(ci.width) + '|' + (mid >= ci.left - 1 && mid <= ci.right + 1); });");
            assertEquals(comparisons, rows.size(), "one row per pair and metric: " + rows);
            for (Object r : rows) {
                String[] f = r.toString().split("\\|");
                assertTrue(Long.parseLong(f[1]) > 0, "interval drawn: " + r);
                assertEquals("true", f[2], "the ratio on its interval: " + r);
            }
            assertTrue(((Number) browser.script("return Math.round(document.querySelector('#forest rect.band').getBoundingClientRect().width)"))
                    .longValue() > 0, "the ±5% band drawn");
            assertEquals(Boolean.TRUE, browser.script("var t = document.querySelector('table'), h = document.querySelector('h2');"
                    + " return t.closest('section').className === 'answer' && !!(t.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING);"),
                    "the matrix opens the page");
            @SuppressWarnings("unchecked")
            List<Object> charts = (List<Object>) browser.script(
                    "return Array.from(document.querySelectorAll('.chart')).map(function (el) {"
                            + " var c = echarts.getInstanceByDom(el); var canvas = el.querySelector('canvas');"
                            + " var points = c ? c.getOption().series.reduce(function (n, s) { return n + s.data.length; }, 0) : 0;"
                            + " return el.id + ' ' + (canvas ? canvas.width * canvas.height : 0) + ' ' + points; });");
            assertEquals(List.of("s0-throughput", "s0-latency", "s0-percentiles", "s0-cpu", "s0-rss"),
                    charts.stream().map(c -> c.toString().split(" ")[0]).toList(), "charts with data only: " + charts);
            for (Object c : charts) {
                String[] f = c.toString().split(" ");
                assertTrue(Long.parseLong(f[1]) > 10_000, "canvas drawn: " + c);
                assertTrue(Long.parseLong(f[2]) >= 20, "a point per round at least: " + c);
            }
        }
    }

    /**
     * The JIT per round (QuietReportTest's run, mvc named by a hostile string): drawn beside the throughput per round, a line per
     * JVM and its own dashed, the lead-in rounds left of round 1, and the 2% limit as a horizontal line inside the y axis although
     * most blocks stay under it; the hostile name stays text.
     */
    @Test
    void theJitPerRoundIsDrawnBesideThroughputWithItsLimit() throws Exception {
        String evil = "<img src=x onerror=alert(6)>";
        Path html = Report.write(dir, QuietReportTest.run(evil));
        try (Browser browser = Browser.open(html)) {
            Object drawn = browser.script("var el = document.getElementById('s0-jit'), t = document.getElementById('s0-throughput');"
                    + " var c = echarts.getInstanceByDom(el), o = c.getOption(), canvas = el.querySelector('canvas');"
                    + " var limit = o.series.filter(function (s) { return s.markLine; }).map(function (s) { return s.markLine.data.map(function (d) { return d.yAxis; }); });"
                    + " var y = c.getModel().getComponent('yAxis', 0).axis.scale.getExtent(), x = c.getModel().getComponent('xAxis', 0).axis.scale.getExtent();"
                    + " var beside = Math.round(t.getBoundingClientRect().top) === Math.round(el.getBoundingClientRect().top) && t.getBoundingClientRect().right < el.getBoundingClientRect().left;"
                    + " return [canvas ? canvas.width * canvas.height : 0, o.series.length, o.series.filter(function (s) { return s.lineStyle && s.lineStyle.type === 'dashed'; }).length,"
                    + " JSON.stringify(limit), y[0], y[1] >= 2.5, x[0], beside].join(' ');");
            String[] f = drawn.toString().split(" ");
            assertTrue(Long.parseLong(f[0]) > 10_000, "canvas drawn: " + drawn);
            assertEquals("13 6 [[2]] 0 true -5 true", String.join(" ", List.of(f).subList(1, f.length)),
                    "the lead-in and 6 JVMs x (all, own dashed), the limit at 2 inside the axis, the lead-in from round -5, beside throughput: " + drawn);
            assertEquals(0L, browser.script("return document.querySelectorAll('img[src=x]').length"), "the hostile name became an element");
        }
    }

    /**
     * The CPU charts (FlameGraphsTest's run, a hostile frame added to mvc's stacks): the category bars, a flame graph per target
     * as wide as the page and as tall as its deepest stack, and the differential graph, each drawn; a real click on a frame zooms
     * to it and a click on the root returns; the hostile frame's tooltip stays text.
     */
    @Test
    void theCpuChartsDrawAFlameGraphPerTargetThatZoomsOnAClick() throws Exception {
        RunRecord record = FlameGraphsTest.run(dir);
        String evil = "<img src=x onerror=alert(3)>";
        Path mvc = dir.resolve("mvc.crud.collapsed");
        Files.writeString(mvc, Files.readString(mvc) + "java.lang.Thread.run;" + evil + " 100\n");
        Path html = Report.write(dir, record);
        assertFalse(Files.readString(html).contains(evil), "raw frame name in the HTML");
        try (Browser browser = Browser.open(html)) {
            @SuppressWarnings("unchecked")
            List<Object> charts = (List<Object>) browser.script(
                    "return ['s0-categories', 's0-flame-0', 's0-flame-1', 's0-flamediff-0'].map(function (id) {"
                            + " var el = document.getElementById(id); var canvas = el && el.querySelector('canvas');"
                            + " return id + ' ' + (canvas ? canvas.width * canvas.height : 0) + ' ' + Math.round(el.getBoundingClientRect().width)"
                            + " + ' ' + Math.round(el.getBoundingClientRect().height); });");
            for (Object c : charts) {
                String[] f = c.toString().split(" ");
                assertTrue(Long.parseLong(f[1]) > 10_000, "canvas drawn: " + c);
                if (f[0].contains("flame")) {
                    assertTrue(Long.parseLong(f[2]) > 1000, "a flame graph spans the page: " + c);
                }
            }
            // Where doDispatch is drawn on mvc's graph, by the chart's own axes; a click there zooms the x axis to it.
            String frame = "var c = echarts.getInstanceByDom(document.getElementById('s0-flame-0')); var o = c.getOption();"
                    + " var names = JSON.parse(document.getElementById('loomflux-data').textContent).charts.filter(function (x) { return x.id === 's0-flame-0'; })[0].names;"
                    + " var f = o.series[0].data.filter(function (d) { return names[d[3]] === arguments[0]; })[0];";
            @SuppressWarnings("unchecked")
            List<Number> at = (List<Number>) browser.script(frame.replace("arguments[0]", "'org.springframework.web.servlet.DispatcherServlet.doDispatch'")
                    + " var p = c.convertToPixel({ seriesIndex: 0 }, [(f[0] + f[1]) / 2, f[2] + 0.5]); return [p[0], p[1], f[0], f[1]];");
            browser.click("s0-flame-0", at.get(0).intValue(), at.get(1).intValue());
            assertEquals(List.of(at.get(2).doubleValue(), at.get(3).doubleValue()), axis(browser), "zoomed to doDispatch");
            @SuppressWarnings("unchecked")
            List<Number> root = (List<Number>) browser.script(frame.replace("arguments[0]", "'all'")
                    + " var p = c.convertToPixel({ seriesIndex: 0 }, [" + (at.get(2).doubleValue() + at.get(3).doubleValue()) / 2 + ", f[2] + 0.5]); return [p[0], p[1]];");
            browser.click("s0-flame-0", root.get(0).intValue(), root.get(1).intValue());
            assertEquals(List.of(0.0, 28.0), axis(browser), "back to the whole tree, 28 µs per request");
            Object tip = browser.script(frame.replace("arguments[0]", "'" + evil + "'")
                    + " c.dispatchAction({ type: 'showTip', seriesIndex: 0, dataIndex: o.series[0].data.indexOf(f) });"
                    + " return Array.from(document.querySelectorAll('#s0-flame-0 div')).map(function (d) { return d.textContent; }).join('|');");
            assertTrue(tip.toString().contains(evil), "the tooltip shows the frame as text: " + tip);
            assertEquals(0L, browser.script("return document.querySelectorAll('img[src=x]').length"), "the hostile frame became an element");
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Double> axis(Browser browser) {
        return ((List<Number>) browser.script("var x = echarts.getInstanceByDom(document.getElementById('s0-flame-0')).getOption().xAxis[0]; return [x.min, x.max];"))
                .stream().map(Number::doubleValue).toList();
    }

    /**
     * A paired capacity (./lab capacity, 10 rungs): its tables in the page, a hostile target name text in them, and every rung
     * a row of the rungs' table.
     */
    @Test
    void aCapacityLadderShowsItsTablesWithEveryRungAndHostileNamesAsText() throws Exception {
        String evil = "<img src=x onerror=alert(1)>";
        String text = Files.readString(ReportMarkdownTest.LADDER.resolve("results.json")).replace("\"mvc-vt\"", "\"" + evil.replace("\"", "\\\"") + "\"");
        Files.writeString(dir.resolve("results.json"), text);
        Path html = Report.write(dir);
        String page = Files.readString(html);
        assertFalse(page.contains(evil), "raw target name in the HTML");
        try (Browser b = Browser.open(html)) {
            @SuppressWarnings("unchecked")
            List<Object> captions = (List<Object>) b.script("return Array.from(document.querySelectorAll('table caption')).map(function (c) {"
                    + " return c.textContent + '|' + c.parentElement.querySelectorAll('tbody tr').length; });");
            assertTrue(captions.stream().anyMatch(c -> c.toString().startsWith("gateway-delay20: each target's capacity") && c.toString().endsWith("|3")), captions.toString());
            assertTrue(captions.contains("gateway-delay20: pairs|3"), captions.toString());
            assertTrue(captions.stream().anyMatch(c -> c.toString().startsWith("gateway-delay20: every rung") && c.toString().endsWith("|10")), captions.toString());
            Object body = b.script("return document.body.innerText;");
            assertTrue(body.toString().contains("mvc/" + evil + " capacity 1.477"), "the answer names the pair, as text");
            assertEquals(0L, b.script("return document.querySelectorAll('img[src=x]').length"), "the hostile name became an element");
        }
    }

    /**
     * The peer's smooth spike in rounds (mvc-vt out of heap in 6 of 6 rounds): the survival answer above the matrix, the Survival
     * section's two tables, and a hostile name for mvc-vt as text in them and in the cause.
     */
    @Test
    void aSpikeThatKillsATargetShowsSurvivalWithHostileNamesAsText() throws Exception {
        String evil = "<img src=x onerror=alert(1)>";
        String text = Files.readString(ReportMarkdownTest.SPIKE.resolve("results.json")).replace("\"mvc-vt\"", "\"" + evil.replace("\"", "\\\"") + "\"")
                .replace("java.lang.OutOfMemoryError: Java heap space", "java.lang.OutOfMemoryError: " + evil.replace("\"", "\\\""));
        Files.writeString(dir.resolve("results.json"), text);
        Path html = Report.write(dir);
        assertFalse(Files.readString(html).contains(evil), "raw target name in the HTML");
        try (Browser b = Browser.open(html)) {
            @SuppressWarnings("unchecked")
            List<Object> captions = (List<Object>) b.script("return Array.from(document.querySelectorAll('table caption')).map(function (c) {"
                    + " return c.textContent + '|' + c.parentElement.querySelectorAll('tbody tr').length; });");
            assertTrue(captions.stream().anyMatch(c -> c.toString().startsWith("chain-delay100-depth0: deaths over the measured rounds") && c.toString().endsWith("|4")),
                    captions.toString());
            assertTrue(captions.stream().anyMatch(c -> c.toString().startsWith("chain-delay100-depth0: survival, pair by pair") && c.toString().endsWith("|6")),
                    captions.toString());
            Object body = b.script("return document.body.innerText;");
            assertTrue(body.toString().contains("webflux survives more than " + evil + " (p = 0.002)"), "the answer names the pair, as text");
            assertTrue(body.toString().contains(evil + " died in 6 of 6 rounds (95% CI 54-100%)"), body.toString());
            assertEquals(0L, b.script("return document.querySelectorAll('img[src=x]').length"), "the hostile name became an element");
        }
    }

    /**
     * A sweep's map (SweepIT's command with 120 s of first warmup: mvc-10 and mvc-vt behind a 50 ms
     * downstream at 5, 50 and 100 users, three repeats): a heatmap per metric with one labelled cell per grid point, and a line
     * chart per metric with a band per target; a hostile target name stays text there too.
     */
    @Test
    void aSweepDrawsItsHeatmapsAndLinesWithEveryCellLabelled() throws Exception {
        Files.copy(Path.of("src/test/resources/fixtures/sweep-mvc10-mvcvt/results.json"), dir.resolve("results.json"));
        String evil = "<img src=x onerror=alert(1)>";
        String text = Files.readString(dir.resolve("results.json")).replace("\"mvc-10", "\"" + evil.replace("\"", "\\\""));
        Files.writeString(dir.resolve("results.json"), text);
        Path html = Report.write(dir);
        String page = Files.readString(html);
        assertFalse(page.contains(evil), "raw target name in the HTML");
        assertTrue(page.contains("&lt;img src=x onerror=alert(1)&gt;"), "escaped target name");
        try (Browser b = Browser.open(html)) {
            @SuppressWarnings("unchecked")
            List<Object> maps = (List<Object>) b.script(
                    "return Array.from(document.querySelectorAll('.chart')).filter(function (el) { return el.id.endsWith('-map'); }).map(function (el) {"
                            + " var c = echarts.getInstanceByDom(el); var canvas = el.querySelector('canvas');"
                            + " var cells = c.getOption().series[0].data;"
                            + " return el.id + '|' + (canvas ? canvas.width * canvas.height : 0) + '|' + cells.length + '|'"
                            + " + cells.map(function (d) { return c.getOption().xAxis[0].data[d[0]] + '=' + d[3]; }).join(';'); });");
            assertEquals(8, maps.size(), "a heatmap per metric: " + maps);
            for (Object m : maps) {
                String[] f = m.toString().split("\\|");
                assertTrue(Long.parseLong(f[1]) > 10_000, "canvas drawn: " + m);
                assertEquals("3", f[2], "one cell per users value: " + m);
            }
            String throughput = maps.stream().map(Object::toString).filter(m -> m.startsWith("sweep-s0-throughput-map")).findFirst().orElseThrow();
            // In that run each of mvc-10's three JVMs was still compiling after 120 s at 100 users: that column is grey.
            assertTrue(throughput.contains("5=no clear difference") && throughput.contains("50=mvc-vt by 395%") && throughput.contains("100=not steady"),
                    throughput);
            // The colour's alpha as drawn follows the margin: mvc-vt's 395% throughput win is opaque, its 15.8% fewer
            // threads paler (0.57), a pre-floor 3.5% memory "win" palest (0.3), and grey cells opaque.
            @SuppressWarnings("unchecked")
            List<Object> alphas = (List<Object>) b.script(
                    "return ['throughput', 'threads', 'rss', 'p50'].map(function (m) {"
                            + " var c = echarts.getInstanceByDom(document.getElementById('sweep-s0-' + m + '-map'));"
                            + " var d = c.getModel().getSeriesByIndex(0).getData(); var out = [];"
                            + " for (var i = 0; i < d.count(); i++) { var rgba = echarts.color.parse(d.getItemVisual(i, 'style').fill);"
                            + "   out.push(c.getOption().xAxis[0].data[d.getRawDataItem(i)[0]] + '=' + rgba[3].toFixed(2)); }"
                            + " return m + ':' + out.sort().join(','); });"); // JavaScript's string order: 100, 50, 5
            assertEquals(List.of("throughput:100=1.00,50=1.00,5=1.00", "threads:100=1.00,50=0.57,5=0.57",
                    "rss:100=1.00,50=0.30,5=0.30", "p50:100=1.00,50=0.95,5=1.00"), alphas);
            @SuppressWarnings("unchecked")
            List<Object> lines = (List<Object>) b.script(
                    "return Array.from(document.querySelectorAll('.chart')).filter(function (el) { return el.id.endsWith('-axis0'); }).map(function (el) {"
                            + " var s = echarts.getInstanceByDom(el).getOption().series;"
                            + " return el.id + '|' + s.length + '|' + s.filter(function (x) { return x.areaStyle; }).length + '|' + s[0].data.length; });");
            assertEquals(8, lines.size(), "a line chart per metric: " + lines);
            lines.forEach(l -> assertTrue(l.toString().endsWith("|6|2|3"), "two targets, each a line and a band, at 3 points: " + l));
            assertEquals(0L, b.script("return document.querySelectorAll('img[src=x]').length"), "the hostile name became an element");
        }
    }
}
