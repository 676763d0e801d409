package dev.loomflux.targets;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of GET /config: the settings that decide fairness, read back from the running server,
 * pools and JVM, so an override that did not take effect shows. Every target writes this record and
 * the lab reads it back (verify, results.json target_config).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TargetConfig(String target, Server server, @JsonProperty("request_thread") RequestThread requestThread,
                           @JsonProperty("http_client") HttpClientPool httpClient, @JsonProperty("db_pool") DbPool dbPool,
                           @JsonProperty("downstream_url") String downstreamUrl, Jvm jvm) {
    /**
     * Tomcat has a worker pool (threads_max; none on virtual threads) and caches up to processor_cache
     * request processors (-1: no limit); Reactor Netty has event loops.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Server(String engine, @JsonProperty("threads_max") Integer threadsMax, @JsonProperty("processor_cache") Integer processorCache,
                         @JsonProperty("event_loops") Integer eventLoops, @JsonProperty("virtual_threads") boolean virtualThreads) {
    }

    /** The thread that served /config itself. */
    public record RequestThread(String name, boolean virtual) {
        public static RequestThread current() {
            Thread t = Thread.currentThread();
            return new RequestThread(t.getName(), RuntimeFacts.isVirtual(t));
        }
    }

    /** The client the target calls the downstream with. */
    public record HttpClientPool(String library, @JsonProperty("max_connections") int maxConnections, @JsonProperty("max_per_route") int maxPerRoute,
                                 @JsonProperty("connect_timeout_ms") long connectTimeoutMs, @JsonProperty("response_timeout_ms") long responseTimeoutMs,
                                 @JsonProperty("acquire_timeout_ms") long acquireTimeoutMs) {
    }

    /** schema: where the pool's connections find table item, the target's own copy of it (loomflux.db.schema). */
    public record DbPool(String library, @JsonProperty("max_size") int maxSize, @JsonProperty("min_idle") int minIdle,
                         @JsonProperty("acquire_timeout_ms") long acquireTimeoutMs, String schema) {
    }

    public record Jvm(String jdk, String vm, @JsonProperty("available_processors") int availableProcessors, @JsonProperty("heap_max_mb") long heapMaxMb,
                      long pid) {
        public static Jvm current() {
            Runtime rt = Runtime.getRuntime();
            return new Jvm(System.getProperty("java.version"), System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
                    rt.availableProcessors(), rt.maxMemory() / (1024 * 1024), ProcessHandle.current().pid());
        }
    }
}
