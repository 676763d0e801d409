package dev.loomflux.lab.driver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The real downstream stub (built before the lab in the reactor) as a child process on a free port. */
public final class Stub implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("loomflux-downstream listening on (\\S+):(\\d+)");

    private final Process process;
    private final URI base;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Stub(Process process, URI base) {
        this.process = process;
        this.base = base;
    }

    public static Stub start() throws Exception {
        Path home = Path.of(System.getProperty("loomflux.home", "..")).toAbsolutePath().normalize();
        Path jar = home.resolve("downstream/target/loomflux-downstream.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the stub first: " + jar);
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-Xmx128m", "-jar", jar.toString(), "--host", "127.0.0.1", "--port", "0")
                .redirectErrorStream(true)
                .start();
        CompletableFuture<URI> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            StringBuilder output = new StringBuilder();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    output.append(line).append('\n');
                    Matcher m = READY.matcher(line);
                    if (m.find()) {
                        ready.complete(URI.create("http://" + m.group(1) + ":" + m.group(2)));
                    }
                }
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
            ready.completeExceptionally(new IllegalStateException("stub exited before it was ready:\n" + output));
        }, "stub-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return new Stub(p, ready.get(30, TimeUnit.SECONDS));
        } catch (Exception e) {
            p.destroyForcibly();
            throw e;
        }
    }

    public URI base() {
        return base;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The stub's count of /delay requests it answered with 200. */
    long served() throws Exception {
        return count("requests");
    }

    /** One of the stub's counts: requests (to /delay, in /stats), created, read, updated, deleted, notFound (of /items, in /stats/items). */
    long count(String name) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve(name.equals("requests") ? "/stats" : "/stats/items")).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\\d+)").matcher(r.body());
        if (!m.find()) {
            throw new IllegalStateException("unexpected /stats body: " + r.body());
        }
        return Long.parseLong(m.group(1));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
