package dev.loomflux.targets.mvc;

import com.zaxxer.hikari.HikariDataSource;
import dev.loomflux.targets.TargetConfig;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import reactor.netty.resources.LoopResources;

/**
 * The body of GET /config: the settings that decide fairness, read back from the running
 * server (Tomcat, or Reactor Netty for webflux-vt), HikariCP pool and downstream client, so an override
 * that did not take effect shows.
 */
@Component
class MvcConfigReport {
    private final LoomfluxProperties props;
    private final WebServerApplicationContext context;
    private final Environment environment;
    private final HikariDataSource dataSource;
    private final MvcDownstreamConfig.Client downstream;

    MvcConfigReport(LoomfluxProperties props, WebServerApplicationContext context, Environment environment,
                 HikariDataSource dataSource, MvcDownstreamConfig.Client downstream) {
        this.props = props;
        this.context = context;
        this.environment = environment;
        this.dataSource = dataSource;
        this.downstream = downstream;
    }

    TargetConfig report() {
        return new TargetConfig(props.targetName(),
                server(),
                TargetConfig.RequestThread.current(),
                downstream.pool().get(),
                new TargetConfig.DbPool("hikaricp", dataSource.getMaximumPoolSize(), dataSource.getMinimumIdle(), dataSource.getConnectionTimeout(),
                        dataSource.getSchema()),
                props.downstream().url(), TargetConfig.Jvm.current());
    }

    private TargetConfig.Server server() {
        boolean virtual = Threading.VIRTUAL.isActive(environment);
        if (context.getWebServer() instanceof TomcatWebServer tomcat) {
            ProtocolHandler protocol = tomcat.getTomcat().getConnector().getProtocolHandler();
            return new TargetConfig.Server("tomcat", threadsMax(protocol), processorCache(protocol), null, virtual);
        }
        // webflux-vt: Reactor Netty's global loop resources serve the connections; the blocking controller
        // methods run on Boot's virtual-thread executor, which has no cap either.
        return new TargetConfig.Server("reactor-netty", null, null, LoopResources.DEFAULT_IO_WORKER_COUNT, virtual);
    }

    /** Null when requests run on virtual threads: Tomcat then has no worker pool to cap. */
    private static Integer threadsMax(ProtocolHandler protocol) {
        if (protocol.getExecutor() instanceof ThreadPoolExecutor pool) {
            return pool.getMaximumPoolSize();
        }
        return null;
    }

    /**
     * On virtual threads this decides more than its name says: each request in flight beyond it gets a
     * newly built processor (README, "Fairness").
     */
    private static int processorCache(ProtocolHandler protocol) {
        return ((AbstractProtocol<?>) protocol).getProcessorCache();
    }
}
