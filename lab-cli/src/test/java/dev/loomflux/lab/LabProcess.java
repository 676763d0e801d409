package dev.loomflux.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The lab in a process of its own, for what cannot be done to the test's JVM (signals, SIGKILL, a second lab at once). */
final class LabProcess {
    private LabProcess() {
    }

    /** The built jar as ./lab runs it, in a process of its own, with SIGINT at its default (as Ctrl-C in a terminal finds it). */
    static Process start(Path console, String... args) throws java.io.IOException {
        return start(List.of(), console, args);
    }

    /** @param prefix what runs the lab, e.g. {@code ip netns exec NAME} to run it in a network namespace */
    static Process start(List<String> prefix, Path console, String... args) throws java.io.IOException {
        Path home = Path.of(System.getProperty("loomflux.home")).toAbsolutePath();
        List<String> cmd = new java.util.ArrayList<>(prefix);
        cmd.addAll(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\"",
                ProcessHandle.current().info().command().orElse("java"),
                "-Dloomflux.home=" + home, "-jar", home.resolve("lab-cli/target/loomflux-lab.jar").toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(console.toFile()).start();
    }

    static void awaitLine(Path file, String text, int seconds) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (System.currentTimeMillis() < deadline) {
            if (Files.isRegularFile(file) && Files.readString(file).contains(text)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no '" + text + "' within " + seconds + " s:\n" + Files.readString(file));
    }
}
