package dev.loomflux.lab.cpuprofile;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a CPU sample was spent on, a fixed set so that every target's profile has the same columns, in
 * the order a request meets them: the server, the framework, the libraries, the app's own code; then
 * the JVM's own threads; then what no rule names. GC and JIT compilation are seen only with
 * async-profiler ({@code --cpu-profiler async}), which samples every thread of the process with its
 * native frames: JFR samples only Java threads, never the GC workers or the compiler threads, so
 * under JFR both stay 0 and their CPU is spread over the others by their shares.
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
    /** The garbage collector's threads and its slow paths in a Java thread (HotSpot's G1 frames): async-profiler only. */
    GC("gc"),
    /** The JIT compiler threads: async-profiler only. */
    JIT("jit"),
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
