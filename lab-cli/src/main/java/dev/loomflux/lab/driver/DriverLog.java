package dev.loomflux.lab.driver;

import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.filter.BurstFilter;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * While a run lasts, Hyperfoil's own log goes to the run's driver.log instead of the console: a target
 * that dies under load makes it log one error per user and attempt (61,178 lines once), and the lab
 * already reports the failure as one line. Rate-limited, because writing a flood costs the driver's CPU.
 */
public final class DriverLog implements AutoCloseable {
    private static final String CONSOLE = "stderr";
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final Appender file;
    private final Appender console;

    public DriverLog(Path path) {
        Configuration config = context.getConfiguration();
        LoggerConfig root = config.getRootLogger();
        file = FileAppender.newBuilder()
                .setName("driver-log-" + path)
                .withFileName(path.toString())
                .withAppend(true)
                .setLayout(PatternLayout.newBuilder().withConfiguration(config)
                        .withPattern("%d{HH:mm:ss.SSS} %-5level [%c{1}] %msg%n").build())
                .setFilter(BurstFilter.newBuilder().setLevel(Level.ERROR).setRate(10).setMaxBurst(100).build())
                .setConfiguration(config)
                .build();
        file.start();
        config.addAppender(file);
        console = root.getAppenders().get(CONSOLE);
        root.addAppender(file, null, null);
        if (console != null) {
            root.removeAppender(CONSOLE);
        }
        context.updateLoggers();
    }

    @Override
    public void close() {
        LoggerConfig root = context.getConfiguration().getRootLogger();
        root.removeAppender(file.getName());
        if (console != null) {
            root.addAppender(console, null, null);
        }
        context.updateLoggers();
        file.stop();
    }
}
