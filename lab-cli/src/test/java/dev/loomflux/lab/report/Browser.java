package dev.loomflux.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.interactions.Actions;

/** A page in real headless Chromium (Debian chromium + chromium-driver; .ci/run installs them), opened without console errors. */
final class Browser implements AutoCloseable {
    private final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    static Browser open(Path html) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,4000");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(System.getenv().getOrDefault("CHROMEDRIVER", "/usr/bin/chromedriver")).toFile()).build();
        Browser b = new Browser(new ChromeDriver(service, options));
        try {
            b.driver.get(html.toUri().toString());
            List<LogEntry> severe = b.driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
            assertEquals(List.of(), severe.stream().map(LogEntry::getMessage).toList(), "console errors");
            return b;
        } catch (RuntimeException | AssertionError e) {
            b.close();
            throw e;
        }
    }

    Object script(String js) {
        return ((JavascriptExecutor) driver).executeScript(js);
    }

    /** A real mouse click at (x, y) pixels from the element's top left corner. */
    void click(String id, int x, int y) {
        WebElement el = driver.findElement(By.id(id));
        Rectangle r = el.getRect();
        new Actions(driver).moveToElement(el, x - r.getWidth() / 2, y - r.getHeight() / 2).click().perform();
    }

    void screenshot(Path to) throws java.io.IOException {
        Files.copy(((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath(), to, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
