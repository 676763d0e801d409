package dev.loomflux.lab.verify;

/** One line of the verify table. */
public record CheckResult(String target, String check, boolean passed, String detail) {
}
