package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * report.html in real headless Chromium (Debian chromium + chromium-driver; .ci/run installs them):
 * it loads offline without console errors, every chart has drawn, and user strings stay text.
 */
class ReportHtmlIT {
    @TempDir
    Path dir;

    @Test
    void opensOfflineAndDrawsEveryChartWithoutConsoleErrors() throws Exception {
        ReportMarkdownTest.copyFixture(dir);
        // A hostile target name must come out as text, in tables and charts alike.
        String evil = "<img src=x onerror=alert(1)>";
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(dir.resolve("results.json").toFile());
        ((ObjectNode) root.path("results").get(0)).put("target", evil);
        ((ObjectNode) root.path("experiment")).put("name", "</script><script>alert(2)</script>");
        json.writeValue(dir.resolve("results.json").toFile(), root);
        Path html = Report.write(dir);
        String page = Files.readString(html);
        assertFalse(page.contains(evil), "raw target name in the HTML");
        assertTrue(page.contains("&lt;img src=x onerror=alert(1)&gt;"), "escaped target name");
        assertFalse(page.contains("</script><script>alert(2)"), "script-breaking experiment name");
        assertFalse(page.contains("src=\"http") || page.contains("href=\"http"), "nothing fetched from the network");
        assertTrue(page.contains("<p><strong>plaintext:</strong> &lt;img src=x onerror=alert(1)&gt; had the highest throughput (5481 rps)"), "headline");

        ChromeOptions options = new ChromeOptions();
        options.setBinary(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,4000");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(System.getenv().getOrDefault("CHROMEDRIVER", "/usr/bin/chromedriver")).toFile()).build();
        ChromeDriver browser = new ChromeDriver(service, options);
        try {
            browser.get(html.toUri().toString());
            List<LogEntry> severe = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
            assertEquals(List.of(), severe.stream().map(LogEntry::getMessage).toList(), "console errors");
            @SuppressWarnings("unchecked")
            List<Object> charts = (List<Object>) ((JavascriptExecutor) browser).executeScript(
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
            Object alerted = ((JavascriptExecutor) browser).executeScript("return document.querySelectorAll('img[src=x]').length");
            assertEquals(0L, alerted, "the hostile name became an element");
            Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(shot, Path.of("target/report-screenshot.png"), StandardCopyOption.REPLACE_EXISTING);
        } finally {
            browser.quit();
        }
    }
}
