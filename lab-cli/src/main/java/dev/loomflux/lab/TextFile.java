package dev.loomflux.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A file the lab writes whole (a benchmark's YAML, a config): a failure names the file. */
public final class TextFile {
    private TextFile() {
    }

    public static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
