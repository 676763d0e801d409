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

/** What the console shows, also kept in run.log with timestamps. */
final class RunLog implements AutoCloseable {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private final PrintWriter console;
    private final PrintWriter file;

    RunLog(PrintWriter console, Path file) {
        this.console = console;
        try {
            this.file = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND), true);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    synchronized void line(String text) {
        console.println(text);
        console.flush();
        file.println(LocalTime.now().format(TIME) + " " + text);
    }

    @Override
    public synchronized void close() {
        file.close();
    }
}
