package dev.loomflux.lab.db;

import dev.loomflux.lab.UsageException;
import java.util.Map;

/** Derives the R2DBC URL that WebFlux needs from the JDBC URL that MVC needs. */
public final class DatabaseUrls {
    // MySQL and MariaDB slot in here once targets carry their drivers.
    private static final Map<String, String> JDBC_TO_R2DBC = Map.of("jdbc:postgresql://", "r2dbc:postgresql://");

    private DatabaseUrls() {
    }

    public static String r2dbc(String jdbcUrl) {
        for (Map.Entry<String, String> e : JDBC_TO_R2DBC.entrySet()) {
            if (jdbcUrl.startsWith(e.getKey())) {
                return e.getValue() + jdbcUrl.substring(e.getKey().length());
            }
        }
        throw new UsageException("--db-url " + jdbcUrl + ": only jdbc:postgresql://host[:port]/database is supported");
    }
}
