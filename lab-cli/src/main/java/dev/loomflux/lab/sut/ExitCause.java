package dev.loomflux.lab.sut;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a target died, from its last words and its exit, as the headline of its failure: an mvc-vt out
 * of heap at 10,000 users read "target exited during the run (code 3); last lines: ..." with three
 * start-up lines first and the OutOfMemoryError last, cut off on the console.
 */
public final class ExitCause {
    private static final Pattern OOM = Pattern.compile("(java\\.lang\\.OutOfMemoryError|io\\.netty\\.util\\.internal\\.OutOfDirectMemoryError): ?(.*)");
    private static final Pattern BIND = Pattern.compile(".*(Address already in use|Port \\d+ was already in use|BindException|Failed to bind).*");
    private static final String CRASH = "# A fatal error has been detected by the Java Runtime Environment";
    private static final Pattern HS_ERR = Pattern.compile("#\\s*(\\S*hs_err_pid\\d+\\.log)");
    private static final int MAX = 200;

    private ExitCause() {
    }

    /**
     * @param log       the target's log, oldest line first
     * @param cgroupOom the kernel's OOM kill under its memory limit, when that was it
     * @param heap      the heap it ran with, e.g. 512m
     * @return the cause in a few words with the limit involved and the line that says so; empty when the log does not tell
     */
    public static Optional<String> of(List<String> log, Optional<String> cgroupOom, String heap) {
        if (cgroupOom.isPresent()) {
            return Optional.of(cgroupOom.get() + " (the kernel's OOM killer)");
        }
        for (int i = log.size() - 1; i >= 0; i--) {
            String line = log.get(i).strip();
            Matcher oom = OOM.matcher(line);
            if (oom.find()) {
                String what = oom.group(0);
                String detail = oom.group(2);
                String kind = detail.startsWith("Java heap space") || detail.startsWith("GC overhead") ? "out of heap (heap " + heap + ")"
                        : detail.startsWith("Metaspace") ? "out of metaspace"
                        : detail.startsWith("Compressed class space") ? "out of compressed class space"
                        : detail.startsWith("Direct buffer memory") || oom.group(1).contains("Direct") ? "out of direct buffer memory (limit: the heap, " + heap + ", unless -XX:MaxDirectMemorySize)"
                        : detail.contains("unable to create native thread") ? "could not create a thread (memory or the limit on processes)"
                        : "out of memory";
                return Optional.of(kind + ": " + cut(what));
            }
            if (line.startsWith(CRASH)) {
                String signal = i + 2 < log.size() ? log.get(i + 2).replaceFirst("^#\\s*", "").strip() : "";
                String report = log.subList(i, log.size()).stream().map(HS_ERR::matcher).filter(Matcher::find).map(m -> m.group(1)).findFirst()
                        .map(f -> "; see " + f).orElse("");
                return Optional.of("the JVM crashed" + (signal.isEmpty() ? "" : ": " + cut(signal)) + report);
            }
            if (BIND.matcher(line).matches()) {
                return Optional.of("could not bind its port: " + cut(line));
            }
        }
        return Optional.empty();
    }

    private static String cut(String line) {
        return line.length() <= MAX ? line : line.substring(0, MAX - 3) + "...";
    }
}
