package dev.loomflux.lab.telemetry;

import dev.loomflux.lab.jdk.Jdk;
import dev.loomflux.lab.sut.LaunchSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Dumps the target's running JFR recording to a file with the target JDK's jcmd, while the target runs. */
public final class JfrDump {
    private static final long TIMEOUT_S = 60;

    private JfrDump() {
    }

    /** @return null when dumped, else why not (one line, for the results' note) */
    public static String dump(Jdk jdk, long pid, Path file) {
        Path jcmd = jdk.home().resolve("bin").resolve("jcmd");
        if (!Files.isExecutable(jcmd)) {
            return "no jcmd in " + jdk.home() + " (a JRE?): no JFR summary";
        }
        try {
            Files.deleteIfExists(file);
            Process p = new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), "JFR.dump",
                    "name=" + LaunchSettings.JFR_RECORDING, "filename=" + file.toAbsolutePath()))
                    .redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "jcmd JFR.dump timed out after " + TIMEOUT_S + " s";
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(file)) {
                String text = new String(out, StandardCharsets.UTF_8).strip().replace('\n', ' ');
                return "jcmd JFR.dump failed (exit " + p.exitValue() + "): " + (text.length() > 200 ? text.substring(0, 200) : text);
            }
            return null;
        } catch (IOException e) {
            return "cannot run jcmd: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while dumping JFR";
        }
    }
}
