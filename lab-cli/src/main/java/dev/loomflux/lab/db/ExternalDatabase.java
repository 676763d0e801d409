package dev.loomflux.lab.db;

import dev.loomflux.lab.UsageException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** An existing server named by --db-url; the lab seeds it if the item table is missing or wrong. */
public final class ExternalDatabase implements Database {
    private final String jdbcUrl;
    private final String username;
    private final String password;

    private ExternalDatabase(String jdbcUrl, String username, String password) {
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
    }

    public static ExternalDatabase connect(String jdbcUrl, String username, String password) {
        DatabaseUrls.r2dbc(jdbcUrl); // rejects unsupported URLs before any connection attempt
        DriverManager.setLoginTimeout(5);
        try (Connection c = DriverManager.getConnection(jdbcUrl, username, password)) {
            Seeder.seed(c);
        } catch (SQLException e) {
            throw new UsageException("cannot use database " + jdbcUrl + ": " + firstLine(e.getMessage()));
        }
        return new ExternalDatabase(jdbcUrl, username, password);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    @Override
    public String jdbcUrl() {
        return jdbcUrl;
    }

    @Override
    public String r2dbcUrl() {
        return DatabaseUrls.r2dbc(jdbcUrl);
    }

    @Override
    public String username() {
        return username;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public String description() {
        return "external " + jdbcUrl;
    }

    @Override
    public void close() {
        // Not ours to stop.
    }
}
