package dev.loomflux.targets;

/** GET, PUT or DELETE /items/{id} of an id with no row; every target answers 404. */
public final class ItemNotFoundException extends RuntimeException {
    public ItemNotFoundException(long id) {
        super("no item " + id, null, false, false);
    }
}
