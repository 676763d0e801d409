package dev.loomflux.lab.cpuprofile;

/**
 * The recording a target's CPU profile is read from: its JFR recording ({@code <base>.jfr}), or async-profiler's beside it
 * ({@code <base>.async.jfr}).
 *
 * @param file   its name in the run's directory
 * @param whyNot null when it was dumped, else why not (one line, for the run's log)
 */
public record ProfileSource(Profiler profiler, String file, String whyNot) {
    /** JFR's recording of {@code <base>}, dumped or not as {@code noJfr} says. */
    public static ProfileSource jfr(String base, String noJfr) {
        return new ProfileSource(Profiler.JFR, base + ".jfr", noJfr == null ? null : "no JFR recording: " + noJfr);
    }
}
