package dev.loomflux.lab.sut;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A bring-your-own target: any program, started from an argv list (never through a shell, so
 * nothing is re-split or expanded). Placeholders in the argv: {@code {port}} (a free port the lab
 * picked), {@code {host}} (the bind address, 127.0.0.1 by default), {@code {java}} (the JDK >= 21
 * the lab found) and {@code {home}} (the loomflux checkout). A Java program also gets the lab's equal JVM flags (heap, GC, JFR, CPU count)
 * through {@code JAVA_TOOL_OPTIONS}.
 *
 * @param argv  the command
 * @param ready path (or absolute URL) that answers 200 once the program serves
 * @param port  fixed port the program listens on, or 0 to pass a free one as {port}
 * @param readyTimeout how long the program may take to answer {@code ready} with 200
 */
public record Command(List<String> argv, String ready, int port, Duration readyTimeout) {
    /** What a built-in target gets; a large application on one pinned CPU may need longer. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    public Command {
        argv = List.copyOf(argv);
    }

    /**
     * The same command with each {@code {name}} in its argv replaced by its value: the lab's placeholders when it starts
     * the program, an experiment file's params ({@code --param}) when it reads the file.
     */
    public Command with(Map<String, String> placeholders) {
        return new Command(argv.stream().map(a -> {
            String out = a;
            for (Map.Entry<String, String> e : placeholders.entrySet()) {
                out = out.replace("{" + e.getKey() + "}", e.getValue());
            }
            return out;
        }).toList(), ready, port, readyTimeout);
    }
}
