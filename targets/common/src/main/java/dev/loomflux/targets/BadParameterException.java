package dev.loomflux.targets;

/** A request parameter is missing its format or range; both targets map it to 400. */
public final class BadParameterException extends RuntimeException {
    public BadParameterException(String message) {
        super(message, null, false, false);
    }
}
