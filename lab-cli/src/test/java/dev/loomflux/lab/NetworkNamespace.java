package dev.loomflux.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A second host on this machine for the tests: a network namespace joined to this one by a veth pair, each
 * end with its own address on a /30 of 10.231.0.0/16. Traffic between the two crosses that link only, so a
 * test can tell it went there by the link's byte counters. Its default route is this host's end, so that several
 * such hosts reach each other's links through this one. Needs root and iproute2; deleting the namespace deletes the link.
 */
final class NetworkNamespace implements AutoCloseable {
    private static final java.util.concurrent.atomic.AtomicInteger MADE = new java.util.concurrent.atomic.AtomicInteger();
    private final String name;
    private final String link;
    private final int subnet;

    private NetworkNamespace(String name, String link, int subnet) {
        this.name = name;
        this.link = link;
        this.subnet = subnet;
    }

    /** Why no namespace can be made here, or null when one can. */
    static String unsupported() throws IOException {
        if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
            return "network namespaces need root";
        }
        return Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")) ? null : "network namespaces need iproute2's ip";
    }

    /**
     * A new one, named and addressed apart from every other of this JVM's: the kernel removes a deleted namespace's link
     * only later, so a name used again at once can still be taken.
     */
    static NetworkNamespace create() throws IOException, InterruptedException {
        long pid = ProcessHandle.current().pid();
        int index = MADE.getAndIncrement() % 100;
        // Interface names hold 15 characters; the pid keeps two test JVMs' names and subnets apart.
        NetworkNamespace ns = new NetworkNamespace("loomflux-it-" + pid + "-" + index, "lfit" + pid % 100_000 + "x" + index,
                (int) ((pid * 100 + index) % 16_384));
        try {
            ip("netns", "add", ns.name);
            ip("link", "add", ns.link + "h", "type", "veth", "peer", "name", ns.link + "n");
            ip("link", "set", ns.link + "n", "netns", ns.name);
            ip("addr", "add", ns.outside() + "/30", "dev", ns.link + "h");
            ip("link", "set", ns.link + "h", "up");
            ip("netns", "exec", ns.name, "ip", "addr", "add", ns.inside() + "/30", "dev", ns.link + "n");
            ip("netns", "exec", ns.name, "ip", "link", "set", ns.link + "n", "up");
            ip("netns", "exec", ns.name, "ip", "link", "set", "lo", "up");
            ip("netns", "exec", ns.name, "ip", "route", "add", "default", "via", ns.outside());
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /** This host's end of the link. */
    String outside() {
        return address(1);
    }

    /** The namespace's end of the link. */
    String inside() {
        return address(2);
    }

    private String address(int host) {
        int base = subnet * 4 + host;
        return "10.231." + (base >> 8) + "." + (base & 255);
    }

    /** The command prefix that runs a program inside the namespace. */
    List<String> exec() {
        return List.of("ip", "netns", "exec", name);
    }

    /** Bytes this host has sent into the namespace over the link so far. */
    long bytesSentIn() throws IOException {
        return counter("tx_bytes");
    }

    /** Bytes this host has received from the namespace over the link so far. */
    long bytesReceivedFrom() throws IOException {
        return counter("rx_bytes");
    }

    private long counter(String name) throws IOException {
        return Long.parseLong(Files.readString(Path.of("/sys/class/net", link + "h", "statistics", name)).strip());
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (Files.exists(Path.of("/run/netns", name))) {
            ip("netns", "del", name);
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + ": " + out.strip());
        }
    }
}
