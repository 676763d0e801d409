package dev.loomflux.lab.run;

import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/**
 * What the console shows, also kept in run.log with timestamps. Status lines (each second of a load)
 * all go to run.log; on a terminal the console shows the latest one in place, elsewhere (CI, a pipe)
 * one every 10 s.
 */
final class RunLog implements AutoCloseable {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final long PLAIN_STATUS_EVERY_NANOS = 10_000_000_000L;
    private static final String CLEAR_LINE = "\r\033[2K";
    private final PrintWriter console;
    private final PrintWriter file;
    private final boolean live;
    private boolean statusShown;
    private long lastPlainStatus = System.nanoTime() - PLAIN_STATUS_EVERY_NANOS;

    RunLog(PrintWriter console, Path file, boolean live) {
        this.console = console;
        this.live = live;
        try {
            this.file = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND), true);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    synchronized void line(String text) {
        if (statusShown) {
            console.print(CLEAR_LINE);
            statusShown = false;
        }
        console.println(text);
        console.flush();
        file.println(LocalTime.now().format(TIME) + " " + text);
    }

    synchronized void status(String text) {
        file.println(LocalTime.now().format(TIME) + " " + text);
        if (live) {
            console.print(CLEAR_LINE + text);
            console.flush();
            statusShown = true;
        } else if (System.nanoTime() - lastPlainStatus >= PLAIN_STATUS_EVERY_NANOS) {
            lastPlainStatus = System.nanoTime();
            console.println(text);
            console.flush();
        }
    }

    @Override
    public synchronized void close() {
        if (statusShown) {
            console.println();
            console.flush();
        }
        file.close();
    }
}
