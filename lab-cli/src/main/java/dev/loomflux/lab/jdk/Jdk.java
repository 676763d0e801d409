package dev.loomflux.lab.jdk;

import java.nio.file.Path;

/** A JDK install the lab can launch targets with. */
public record Jdk(Path home, int feature, String version) {
    public Path java() {
        return home.resolve("bin").resolve(isWindows() ? "java.exe" : "java");
    }

    private static boolean isWindows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }
}
