package dev.loomflux.lab.measure;

import dev.loomflux.lab.cpuprofile.AsyncAgent;
import dev.loomflux.lab.cpuprofile.ProfileSource;
import dev.loomflux.lab.sut.LaunchSettings;
import dev.loomflux.lab.sut.RunningTarget;
import dev.loomflux.lab.telemetry.JfrDump;
import java.nio.file.Path;

/** A target's recordings, dumped into the run's directory after its load: its JFR recording, and with --cpu-profiler async async-profiler's. */
public final class Recordings {
    private final LaunchSettings settings;
    private final Path dir;

    Recordings(LaunchSettings settings, Path dir) {
        this.settings = settings;
        this.dir = dir;
    }

    /**
     * Dumps the target's JFR recording, from its start up to now, to {@code file}: what its JVM summary and its CPU profile are
     * read from.
     *
     * @return null when dumped, else why not (one line); never an exception, as telemetry must never cost a measurement
     */
    public String dumpJfr(RunningTarget target, Path file) {
        if (!target.process().isAlive()) {
            return "target exited before its JFR recording could be dumped";
        }
        try {
            return JfrDump.dump(settings.jdk(), target.process().pid(), file);
        } catch (RuntimeException e) {
            return "cannot dump JFR: " + e;
        }
    }

    /**
     * The recording the target's CPU profile is read from: the JFR recording just dumped, or with {@code --cpu-profiler async}
     * async-profiler's, dumped now to {@code <base>.async.jfr}.
     *
     * @param noJfr null when the JFR recording was dumped to {@code <base>.jfr}, else why not
     */
    public ProfileSource dumpProfile(RunningTarget target, String base, String noJfr) {
        AsyncAgent async = settings.async();
        if (async == null) {
            return ProfileSource.jfr(base, noJfr);
        }
        String file = base + ".async.jfr";
        String why = target.process().isAlive() ? async.dump(settings.jdk(), target.process().pid(), dir, dir.resolve(file))
                : "target exited before async-profiler's recording could be dumped";
        return new ProfileSource(async.mode(), file, why == null ? null : "no async-profiler recording: " + why);
    }

}
