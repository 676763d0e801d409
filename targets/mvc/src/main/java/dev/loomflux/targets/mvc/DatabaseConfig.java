package dev.loomflux.targets.mvc;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class DatabaseConfig {

    /**
     * A fixed-size pool (min idle = max). The no-argument constructor defers the pool to the
     * first query, and with no fail-fast check a missing database only costs /items a 503
     * after the acquire timeout: the target still starts and serves everything else.
     */
    @Bean
    HikariDataSource dataSource(LoomfluxProperties props) {
        LoomfluxProperties.Db db = props.db();
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl(db.jdbcUrl());
        ds.setUsername(db.username());
        ds.setPassword(db.password());
        // Every connection's search_path is this schema alone: a missing copy fails, never falls back to public.
        ds.setSchema(db.schema());
        ds.setMaximumPoolSize(db.poolSize());
        ds.setMinimumIdle(db.poolSize());
        ds.setConnectionTimeout(db.acquireTimeout().toMillis());
        ds.setInitializationFailTimeout(-1);
        return ds;
    }
}
