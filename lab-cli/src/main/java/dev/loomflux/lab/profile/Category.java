package dev.loomflux.lab.profile;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a CPU sample was spent on, a fixed set so that every target's profile has the same columns.
 * There is no GC or JIT category: JFR samples only Java threads, never the GC workers or the
 * compiler threads, so no stack stands for their CPU (the lab reads the compiler threads' CPU from
 * /proc instead).
 */
public enum Category {
    /** The HTTP server's own work: Tomcat, Netty, Reactor Netty. */
    SERVER_IO("server-io"),
    /** The web framework routing a request to its handler and back: Spring MVC, WebFlux. */
    DISPATCH("dispatch"),
    /** Reactor's operators and schedulers. */
    REACTOR("reactor"),
    /** Mounting, parking and unparking virtual threads on their carrier pool. */
    VT_SCHEDULING("vt-scheduling"),
    /** JSON reading and writing: Jackson 2 and 3. */
    JSON("json"),
    /** Database drivers and pools, blocking and reactive. */
    DB("db"),
    /** Outgoing HTTP calls. */
    HTTP_CLIENT("http-client"),
    /** The targets' own code. */
    APP("app"),
    /** No frame of the stack matched a rule. */
    OTHER("other");

    private final String label;

    Category(String label) {
        this.label = label;
    }

    /** The name in category files and reports. */
    public String label() {
        return label;
    }

    public static Optional<Category> ofLabel(String label) {
        return Arrays.stream(values()).filter(c -> c.label.equals(label)).findFirst();
    }
}
