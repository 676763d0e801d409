package dev.loomflux.lab;

/** Something the lab started went wrong (a target that won't start, a crashed stub): exit code 1. */
public class LabException extends RuntimeException {
    public LabException(String message) {
        super(message, null, false, false);
    }

    public LabException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
