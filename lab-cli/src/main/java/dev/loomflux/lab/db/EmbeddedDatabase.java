package dev.loomflux.lab.db;

import dev.loomflux.lab.LabException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A real PostgreSQL server started from io.zonky.test binaries, data under the run directory.
 * As root on Linux, zonky runs it through {@code unshare -U} since PostgreSQL refuses root.
 * Zonky's own shutdown hook stops the server and removes its data on Ctrl-C, so it is not
 * registered with the Reaper (two closers racing over the data directory fail).
 */
public final class EmbeddedDatabase implements Database {
    private static final String DB = "loomflux";
    private static final String USER = "loomflux";
    private static final String PASSWORD = "loomflux";

    private final EmbeddedPostgres postgres;
    private final String version;
    private final Path data;

    private EmbeddedDatabase(EmbeddedPostgres postgres, String version, Path data) {
        this.postgres = postgres;
        this.version = version;
        this.data = data;
    }

    /**
     * pg_ctl daemonizes the postmaster (its parent is init, not the lab), so it is found through the
     * first line of postmaster.pid; its backends and workers are its children.
     */
    @Override
    public List<Long> pids() {
        try {
            long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            return ProcessHandle.of(postmaster)
                    .map(p -> java.util.stream.Stream.concat(java.util.stream.Stream.of(p), p.descendants()).map(ProcessHandle::pid).toList())
                    .orElse(List.of());
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** @param dir the run directory's folder for PostgreSQL: data (removed on close) and server log */
    public static EmbeddedDatabase start(Path dir) {
        Path data = dir.resolve("data");
        try {
            Files.createDirectories(dir);
            Path log = dir.resolve("postgres.log");
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(true)
                    .setPort(freePort())
                    // Targets hold 10 connections each; leave room for the seeder and checks.
                    .setServerConfig("max_connections", "100")
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .start();
            EmbeddedDatabase db;
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE ROLE " + USER + " LOGIN PASSWORD '" + PASSWORD + "'");
                s.execute("CREATE DATABASE " + DB + " OWNER " + USER);
                var rs = s.executeQuery("SHOW server_version");
                rs.next();
                db = new EmbeddedDatabase(pg, rs.getString(1), data);
            }
            try (Connection c = pg.getDatabase(USER, DB).getConnection()) {
                Seeder.seed(c);
            }
            return db;
        } catch (IOException | SQLException e) {
            throw new LabException("embedded PostgreSQL did not start (" + e.getMessage() + "); see " + dir.resolve("postgres.log"), e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + DB;
    }

    @Override
    public String r2dbcUrl() {
        return DatabaseUrls.r2dbc(jdbcUrl());
    }

    @Override
    public String username() {
        return USER;
    }

    @Override
    public String password() {
        return PASSWORD;
    }

    @Override
    public String description() {
        return "embedded PostgreSQL " + version + " on port " + postgres.getPort();
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new LabException("stopping embedded PostgreSQL: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "embedded PostgreSQL";
    }
}
