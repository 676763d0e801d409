package dev.loomflux.lab.driver;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 server on 127.0.0.1 that ends a kept-alive connection with every {@code every}-th response it
 * sends, as Tomcat does after {@code max-keep-alive-requests} responses on one connection: that response
 * carries {@code Connection: close}, and the server closes the connection {@code lingerMs} later, without
 * reading what the client sent meanwhile. The delay is the time a FIN takes to follow the response over a
 * network; a client that reuses the connection in it sends a request that is never answered. Counting over
 * all connections, not per connection, makes the number of closes exact: responses / {@code every}.
 * One thread per connection; GET requests without a body only.
 */
public final class ClosingServer implements AutoCloseable {
    private static final byte[] BODY = "ok".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket listener;
    private final int every;
    private final long lingerMs;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong responses = new AtomicLong();
    private final AtomicLong closes = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();

    public ClosingServer(int every, long lingerMs) throws IOException {
        this.every = every;
        this.lingerMs = lingerMs;
        listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "closing-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                connections.incrementAndGet();
                open.add(s);
                Thread t = new Thread(() -> serve(s), "closing-server-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket s) {
        try (s; InputStream in = new BufferedInputStream(s.getInputStream()); OutputStream out = s.getOutputStream()) {
            s.setTcpNoDelay(true);
            while (readHead(in)) {
                long n = responses.incrementAndGet();
                boolean close = n % every == 0;
                String head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + BODY.length + "\r\n"
                        + (close ? "Connection: close\r\n" : "") + "\r\n";
                byte[] h = head.getBytes(StandardCharsets.US_ASCII);
                byte[] response = new byte[h.length + BODY.length];
                System.arraycopy(h, 0, response, 0, h.length);
                System.arraycopy(BODY, 0, response, h.length, BODY.length);
                out.write(response);
                out.flush();
                if (close) {
                    closes.incrementAndGet();
                    Thread.sleep(lingerMs);
                    return;
                }
            }
        } catch (IOException e) {
            // The client closed the connection.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(s);
        }
    }

    /** Reads one request's head, up to its empty line; false at the end of the stream. */
    private static boolean readHead(InputStream in) throws IOException {
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
            if (matched == 4) {
                return true;
            }
        }
        return false;
    }

    public URI base() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    /** Responses sent. */
    public long responses() {
        return responses.get();
    }

    /** Responses that closed their connection. */
    public long closes() {
        return closes.get();
    }

    /** Connections accepted. */
    public long connections() {
        return connections.get();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
