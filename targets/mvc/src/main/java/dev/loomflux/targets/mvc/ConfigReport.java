package dev.loomflux.targets.mvc;

import com.zaxxer.hikari.HikariDataSource;
import dev.loomflux.targets.RuntimeFacts;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hc.client5.http.config.Configurable;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The body of GET /config: the settings that decide fairness, read back from the running
 * Tomcat, HikariCP pool and HttpClient, so an override that did not take effect shows.
 */
@Component
class ConfigReport {
    private final LoomfluxProperties props;
    private final WebServerApplicationContext context;
    private final Environment environment;
    private final HikariDataSource dataSource;
    private final PoolingHttpClientConnectionManager connectionPool;
    private final CloseableHttpClient httpClient;

    ConfigReport(LoomfluxProperties props, WebServerApplicationContext context, Environment environment,
                 HikariDataSource dataSource, PoolingHttpClientConnectionManager connectionPool,
                 CloseableHttpClient httpClient) {
        this.props = props;
        this.context = context;
        this.environment = environment;
        this.dataSource = dataSource;
        this.connectionPool = connectionPool;
        this.httpClient = httpClient;
    }

    Map<String, Object> report() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", props.targetName());
        m.put("server", server());
        m.put("request_thread", RuntimeFacts.requestThread());
        m.put("http_client", httpClient());
        m.put("db_pool", dbPool());
        m.put("downstream_url", props.downstream().url());
        m.put("jvm", RuntimeFacts.jvm());
        return m;
    }

    private Map<String, Object> server() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("engine", "tomcat");
        m.put("threads_max", tomcatThreadsMax());
        m.put("virtual_threads", Threading.VIRTUAL.isActive(environment));
        return m;
    }

    /** Null when requests run on virtual threads: Tomcat then has no worker pool to cap. */
    private Integer tomcatThreadsMax() {
        TomcatWebServer server = (TomcatWebServer) context.getWebServer();
        if (server.getTomcat().getConnector().getProtocolHandler().getExecutor() instanceof ThreadPoolExecutor pool) {
            return pool.getMaximumPoolSize();
        }
        return null;
    }

    private Map<String, Object> httpClient() {
        // The client HttpClients.custom() builds is Configurable; the connect timeout lives in a
        // ConnectionConfig the pool does not expose, so that one value is the configured one.
        RequestConfig requestConfig = ((Configurable) httpClient).getConfig();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("library", "apache-httpclient5");
        m.put("max_connections", connectionPool.getMaxTotal());
        m.put("max_per_route", connectionPool.getDefaultMaxPerRoute());
        m.put("connect_timeout_ms", props.httpClient().connectTimeout().toMillis());
        m.put("response_timeout_ms", requestConfig.getResponseTimeout().toMilliseconds());
        m.put("acquire_timeout_ms", requestConfig.getConnectionRequestTimeout().toMilliseconds());
        return m;
    }

    private Map<String, Object> dbPool() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("library", "hikaricp");
        m.put("max_size", dataSource.getMaximumPoolSize());
        m.put("min_idle", dataSource.getMinimumIdle());
        m.put("acquire_timeout_ms", dataSource.getConnectionTimeout());
        return m;
    }
}
