package dev.loomflux.lab.db;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.process.LabProcesses;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server started from io.zonky.test binaries, data under the run directory.
 * As root on Linux, zonky runs it through {@code unshare -U} since PostgreSQL refuses root.
 * Zonky's own shutdown hook stops the server and removes its data on Ctrl-C, so it is not
 * registered with the lab's {@link LabProcesses} (two closers racing over the data directory fail).
 *
 * <p>If the server dies during a run it is started again on the same port with fresh, re-seeded
 * data, every target's copy of item included (the targets' pools know that port and reconnect),
 * and {@link #restarts()} tells a measurement that it lost its database, as the downstream stub does.
 */
public final class EmbeddedDatabase implements Database {
    private static final String DB = "loomflux";
    private static final String USER = "loomflux";
    private static final String PASSWORD = "loomflux";
    private static final Duration WATCH = Duration.ofMillis(250);

    private final LabProcesses owner;
    private final Path dir;
    private final int port;
    private final Consumer<String> onRestart;
    private final AtomicInteger restarts = new AtomicInteger();
    /** The targets given a copy of table item, to give them one again on a restarted server. */
    private final Set<String> copies = ConcurrentHashMap.newKeySet();
    private volatile EmbeddedPostgres postgres;
    private volatile String version;
    private volatile Path data;
    private volatile boolean closed;

    private EmbeddedDatabase(LabProcesses owner, Path dir, int port, Consumer<String> onRestart) {
        this.owner = owner;
        this.dir = dir;
        this.port = port;
        this.onRestart = onRestart;
    }

    /**
     * @param owner     lists the server in the record of the run it is in
     * @param dir       the run directory's folder for PostgreSQL: data (removed on close) and server log
     * @param onRestart told, in one line, when the server died and was started again
     */
    public static EmbeddedDatabase start(LabProcesses owner, Path dir, Consumer<String> onRestart) {
        EmbeddedDatabase db;
        try {
            Files.createDirectories(dir);
            db = new EmbeddedDatabase(owner, dir, freePort(), onRestart);
        } catch (IOException e) {
            throw new LabException("embedded PostgreSQL did not start (" + e.getMessage() + ")", e);
        }
        db.launch();
        Thread watcher = new Thread(db::watch, "postgres-watcher");
        watcher.setDaemon(true);
        watcher.start();
        return db;
    }

    private void launch() {
        Path fresh = dir.resolve(restarts.get() == 0 ? "data" : "data-" + (restarts.get() + 1));
        Path log = dir.resolve("postgres.log");
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(fresh)
                    .setCleanDataDirectory(true)
                    .setPort(port)
                    // Targets hold 10 connections each; leave room for the seeder and checks.
                    .setServerConfig("max_connections", "100")
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .start();
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE ROLE " + USER + " LOGIN PASSWORD '" + PASSWORD + "'");
                s.execute("CREATE DATABASE " + DB + " OWNER " + USER);
                var rs = s.executeQuery("SHOW server_version");
                rs.next();
                version = rs.getString(1);
            }
            try (Connection c = pg.getDatabase(USER, DB).getConnection()) {
                Seeder.seed(c);
            }
            // The targets still running know only their schemas: each finds its copy again, seeded.
            copies.forEach(target -> ItemCopies.reset(this, target));
            postgres = pg;
            data = fresh;
            // pg_ctl daemonized it: the run's record is what stops it if the lab dies (RunProcesses).
            postmaster().ifPresent(pid -> owner.started("postgres", pid));
        } catch (IOException | SQLException | RuntimeException e) {
            throw new LabException("embedded PostgreSQL did not start (" + e.getMessage() + "); see " + log, e);
        }
    }

    /**
     * The postmaster is not the lab's child (pg_ctl daemonizes it), so its exit cannot be waited
     * for; polled instead, which also sees a server that crashed between two measurements.
     */
    private void watch() {
        while (!closed) {
            Pause.sleep(WATCH);
            OptionalLong pid = postmaster();
            boolean alive = pid.isPresent() && ProcessHandle.of(pid.getAsLong()).map(ProcessHandle::isAlive).orElse(false);
            if (alive || closed) {
                continue;
            }
            restarts.incrementAndGet();
            EmbeddedPostgres dead = postgres;
            try {
                dead.close(); // removes the dead server's data; its pg_ctl stop fails and is only logged
            } catch (IOException ignored) {
                // The data directory stays behind in the run directory; nothing runs from it.
            }
            String what = "PostgreSQL exited" + pid.stream().mapToObj(p -> " (postmaster pid " + p + ")").findFirst().orElse("");
            try {
                launch();
                onRestart.accept(what + "; started again on port " + port + " with fresh, re-seeded data");
            } catch (LabException e) {
                onRestart.accept(what + " and could not be started again: " + e.getMessage());
                return;
            }
        }
    }

    private OptionalLong postmaster() {
        try {
            return OptionalLong.of(Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim()));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** The postmaster and its backends and workers (its children). */
    @Override
    public List<Long> pids() {
        OptionalLong pid = postmaster();
        if (pid.isEmpty()) {
            return List.of();
        }
        return ProcessHandle.of(pid.getAsLong())
                .map(p -> Stream.concat(Stream.of(p), p.descendants()).map(ProcessHandle::pid).toList())
                .orElse(List.of());
    }

    @Override
    public String resetCopy(String target) {
        String schema = Database.super.resetCopy(target);
        copies.add(target);
        return schema;
    }

    @Override
    public int restarts() {
        return restarts.get();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DB;
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
        return "embedded PostgreSQL " + version + " on port " + port;
    }

    @Override
    public void close() {
        closed = true;
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
