package dev.loomflux.lab.run;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.measure.Log;
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
final class RunLog implements Log, AutoCloseable {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final long PLAIN_STATUS_EVERY_NANOS = 10_000_000_000L;
    private static final String CLEAR_LINE = "\r\033[2K";
    private final PrintWriter console;
    private final PrintWriter file;
    private final boolean live;
    /** A live line longer than the terminal would wrap, and clearing it would leave its first part. */
    private final int width;
    private boolean statusShown;
    private long lastPlainStatus = System.nanoTime() - PLAIN_STATUS_EVERY_NANOS;

    RunLog(PrintWriter console, Path file, boolean live) {
        this.console = console;
        this.live = live;
        this.width = live ? terminalColumns() : Integer.MAX_VALUE;
        try {
            this.file = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND), true);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The terminal's width from stty, 80 when it cannot tell. */
    private static int terminalColumns() {
        try {
            Process p = new ProcessBuilder("sh", "-c", "stty size < /dev/tty").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor() == 0 && out.matches("\\d+ \\d+")) {
                return Integer.parseInt(out.split(" ")[1]);
            }
        } catch (IOException e) {
            // no stty: the default
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 80;
    }

    @Override
    public synchronized void line(String text) {
        if (statusShown) {
            console.print(CLEAR_LINE);
            statusShown = false;
        }
        console.println(text);
        console.flush();
        file.println(LocalTime.now().format(TIME) + " " + text);
    }

    @Override
    public synchronized void status(String text) {
        file.println(LocalTime.now().format(TIME) + " " + text);
        if (live) {
            console.print(CLEAR_LINE + (text.length() < width ? text : text.substring(0, Math.max(0, width - 2)) + "~"));
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
