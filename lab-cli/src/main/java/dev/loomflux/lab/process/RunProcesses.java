package dev.loomflux.lab.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What a run started, in its directory ({@value #FILE}: the lab's pid and start time, then one line
 * per process it started), so that nothing outlives the lab however it dies:
 * <ul>
 * <li>a guard ({@code sh}) started with the record holds the read end of a pipe from the lab; when the
 * lab dies, even by SIGKILL, the kernel closes the pipe and the guard kills every recorded process that
 * is still the one recorded (same pid and start time). This covers PostgreSQL, whose postmaster pg_ctl
 * daemonizes out of the lab's reach, and children when {@code setpriv} is missing;</li>
 * <li>when the guard died too (a whole process tree killed at once), the next run or {@code ./lab clean}
 * finds the record of a dead lab, stops what is left and marks the run's results.json abandoned.</li>
 * </ul>
 * A run that ends, or is interrupted and cleans up, writes {@code ended} last.
 */
public final class RunProcesses implements AutoCloseable {
    public static final String FILE = "processes";
    private static final String ENDED = "ended";
    private static final String ABANDONED = "abandoned";
    /** Reads until the lab is gone (EOF), then kills what the record lists unless it says ended. */
    private static final String GUARD = String.join("\n",
            "trap '' INT HUP", // Ctrl-C and a closed terminal reach the lab, which cleans up itself
            "read -r _",
            "grep -qx " + ENDED + " \"$1\" && exit 0",
            "while read -r pid start name; do",
            "  stat=$(cat /proc/\"$pid\"/stat 2>/dev/null) || continue",
            "  set -- ${stat##*\") \"}", // past the command name, which may hold spaces: field 22 is the 20th
            "  [ \"${20}\" = \"$start\" ] && kill -9 \"$pid\" && echo \"killed $name (pid $pid)\"",
            "done < \"$1\"");

    private final LabProcesses owner;
    private final Path file;
    private final Process guard;
    private final OutputStream lifeline;

    private RunProcesses(LabProcesses owner, Path file, Process guard) {
        this.owner = owner;
        this.file = file;
        this.guard = guard;
        this.lifeline = guard == null ? null : guard.getOutputStream();
    }

    /** Starts the record of a run in {@code runDir}, with its guard where {@code sh} and /proc exist; see {@link LabProcesses#openRun}. */
    static RunProcesses open(Path runDir, LabProcesses owner) {
        Path file = runDir.resolve(FILE);
        ProcessHandle self = ProcessHandle.current();
        append(file, "lab " + self.pid() + " " + startOf(self.pid()).orElse("?"));
        Process guard = null;
        if (Files.isDirectory(Path.of("/proc/self"))) {
            try {
                guard = new ProcessBuilder("sh", "-c", GUARD, "guard", file.toString())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(runDir.resolve("guard.log").toFile()))
                        .start();
            } catch (IOException e) {
                // No sh: the next run or ./lab clean is left to find what a dead lab started.
            }
        }
        return new RunProcesses(owner, file, guard);
    }

    /** Adds a process the lab started to the record. */
    void add(String name, long pid) {
        startOf(pid).ifPresent(start -> append(file, pid + " " + start + " " + name.replaceAll("\\s", "_")));
    }

    /** The process's start time as /proc shows it (clock ticks since boot): with the pid it names one process for good. */
    static Optional<String> startOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(") ") + 2).split(" ");
            return Optional.of(fields[19]);
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(i -> Long.toString(i.toEpochMilli()));
        }
    }

    private static boolean alive(long pid, String start) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && startOf(pid).map(start::equals).orElse(false);
    }

    private static void append(Path file, String line) {
        try {
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("lab: cannot write " + file + ": " + e.getMessage());
        }
    }

    /** Everything listed has been stopped: the guard is released and has nothing to do. */
    @Override
    public void close() {
        owner.ended(this);
        append(file, ENDED);
        if (lifeline != null) {
            try {
                lifeline.close();
                if (!guard.waitFor(5, TimeUnit.SECONDS)) { // it reads "ended" and exits at once
                    guard.destroyForcibly();
                }
            } catch (IOException e) {
                guard.destroy();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "record of what the run started (" + file + ")";
    }

    /**
     * Finds the runs under {@code results} whose lab died without ending them, stops what they left
     * running and marks their results.json abandoned; says one line per run.
     *
     * @return how many dead runs were found
     */
    public static int cleanUp(Path results, Consumer<String> say) {
        List<Path> records;
        try (Stream<Path> runs = Files.isDirectory(results) ? Files.list(results) : Stream.empty()) {
            records = runs.map(d -> d.resolve(FILE)).filter(Files::isRegularFile).sorted(Comparator.naturalOrder()).toList();
        } catch (IOException e) {
            say.accept("cannot look for leftovers of dead runs in " + results + ": " + e.getMessage());
            return 0;
        }
        int found = 0;
        for (Path record : records) {
            if (cleanUpRun(record, say)) {
                found++;
            }
        }
        return found;
    }

    private static boolean cleanUpRun(Path record, Consumer<String> say) {
        List<String[]> lines;
        try {
            lines = Files.readAllLines(record).stream().map(l -> l.trim().split(" ", 3)).toList();
        } catch (IOException e) {
            return false;
        }
        if (lines.isEmpty() || !lines.get(0)[0].equals("lab") || lines.get(0).length < 3
                || lines.stream().anyMatch(l -> l[0].equals(ENDED) || l[0].equals(ABANDONED))
                || alive(Long.parseLong(lines.get(0)[1]), lines.get(0)[2])) {
            return false;
        }
        List<String> stopped = new ArrayList<>();
        for (String[] l : lines.subList(1, lines.size())) {
            if (l.length == 3 && l[0].matches("\\d+") && alive(Long.parseLong(l[0]), l[1])) {
                ProcessHandle h = ProcessHandle.of(Long.parseLong(l[0])).orElseThrow();
                h.descendants().forEach(ProcessHandle::destroyForcibly);
                h.destroyForcibly();
                stopped.add(l[2] + " (pid " + l[0] + ")");
            }
        }
        Path dir = record.getParent();
        String status = markAbandoned(dir.resolve("results.json"));
        removeDatabaseData(dir.resolve("postgres"));
        append(record, ABANDONED);
        say.accept("run " + dir.getFileName() + " (lab pid " + lines.get(0)[1] + ") died without finishing: "
                + (stopped.isEmpty() ? "none of its processes was left running" : "stopped what it left running: " + String.join(", ", stopped))
                + "; " + status);
        return true;
    }

    /** results.json's status, set to abandoned when the run never finished it. */
    private static String markAbandoned(Path results) {
        ObjectMapper json = new ObjectMapper();
        try {
            JsonNode root = json.readTree(results.toFile());
            if (!(root instanceof ObjectNode o) || !"running".equals(o.path("status").asText())) {
                return "its results.json says " + root.path("status").asText("nothing");
            }
            o.put("status", ABANDONED);
            Path tmp = results.resolveSibling("results.json.tmp");
            json.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), o);
            Files.move(tmp, results, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return "its results.json is marked abandoned";
        } catch (IOException e) {
            return "it has no readable results.json (" + e.getMessage() + ")";
        }
    }

    /** A dead run's PostgreSQL data (about 40 MB a server) was meant to go when the run ended. */
    private static void removeDatabaseData(Path postgres) {
        try (Stream<Path> dirs = Files.isDirectory(postgres) ? Files.list(postgres) : Stream.empty()) {
            for (Path data : dirs.filter(d -> d.getFileName().toString().startsWith("data") && Files.isDirectory(d)).toList()) {
                try (Stream<Path> all = Files.walk(data)) {
                    all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        } catch (IOException e) {
            // Disk space only; the run is marked abandoned either way.
        }
    }
}
