package dev.loomflux.lab;

/** Bad input from the user (flag, file, environment): one line on stderr, exit code 2, no stack trace. */
public class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message, null, false, false);
    }
}
