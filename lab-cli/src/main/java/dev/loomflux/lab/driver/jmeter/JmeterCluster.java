package dev.loomflux.lab.driver.jmeter;

import com.sun.net.httpserver.HttpServer;
import dev.loomflux.lab.LabException;
import dev.loomflux.lab.Pause;
import dev.loomflux.lab.ShortCommand;
import dev.loomflux.lab.process.LabProcesses;
import dev.loomflux.lab.process.ManagedProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The agents of one JMeter load and what the controller needs to reach them: their addresses, the SSL
 * settings of JMeter's RMI (a keystore made for the load when the lab starts the agents itself), and a
 * clock the agents read before their load (the lab's time in µs over HTTP, on the address the agents
 * reach the controller at), where they also report their CPU during it. Local agents bind 127.0.0.1 only and are stopped when the load ends.
 */
final class JmeterCluster implements AutoCloseable {
    /** The password of keystores ./lab agent makes: the file itself is the secret (client certificates, docs/scale-out.md). */
    static final String AGENT_KEYSTORE_PASSWORD = "loomflux";
    /** How long an agent may take to start: its JVM and JMeter, or its start of the lab's plan, on a busy core. */
    static final Duration AGENT_START = Duration.ofSeconds(60);
    /**
     * The sample sender the jmeter/ module builds into the home's lib/ext: on both ends, the controller's and each agent's. The
     * system property loomflux.jmeter.mode names another (JMeter's own, e.g. StrippedAsynch) for bench/agent-stream.sh's "before".
     */
    static final String SAMPLE_SENDER = "dev.loomflux.jmeter.SecondBatches";
    private static final int CONNECT_TIMEOUT_MS = 3_000;

    private final List<String> addresses;
    private final List<ManagedProcess> local;
    private final Path properties;
    private final String controllerHost;
    private final HttpServer clock;
    private final AgentCpu cpu;
    private boolean clockStopped;

    private JmeterCluster(List<String> addresses, List<ManagedProcess> local, Path properties, String controllerHost, HttpServer clock, AgentCpu cpu) {
        this.addresses = List.copyOf(addresses);
        this.local = local;
        this.properties = properties;
        this.controllerHost = controllerHost;
        this.clock = clock;
        this.cpu = cpu;
    }

    /** Starts the local agents (or checks that the remote ones answer) and the clock; {@code dir} holds the load's files. */
    static JmeterCluster start(LabProcesses owner, Path home, JmeterAgents agents, Path dir) {
        List<ManagedProcess> started = new ArrayList<>();
        HttpServer clock = null;
        try {
            Path properties = dir.resolve("ssl.properties");
            List<String> addresses = new ArrayList<>();
            String controllerHost;
            if (agents.local() > 0) {
                String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
                Path keystore = dir.resolve("agents.p12");
                makeKeystore(keystore, password);
                writeProperties(properties, keystore, password);
                for (int i = 0; i < agents.local(); i++) {
                    String address = "127.0.0.1:" + freePort();
                    started.add(startAgent(owner, home, address, properties, dir.resolve("agent-" + i + ".log")));
                    addresses.add(address);
                }
                for (int i = 0; i < started.size(); i++) {
                    awaitAgent(started.get(i), addresses.get(i));
                }
                controllerHost = "127.0.0.1";
            } else {
                writeProperties(properties, agents.keystore(), AGENT_KEYSTORE_PASSWORD);
                for (String a : agents.remote()) {
                    String why = unreachable(a);
                    if (why != null) {
                        throw new LabException("JMeter " + why);
                    }
                }
                addresses.addAll(agents.remote());
                controllerHost = localAddressTowards(host(addresses.get(0)));
            }
            clock = HttpServer.create(new InetSocketAddress(controllerHost, 0), 0);
            clock.createContext("/clock", exchange -> {
                byte[] body = Long.toString(micros()).getBytes(StandardCharsets.US_ASCII);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            AgentCpu cpu = new AgentCpu();
            clock.createContext("/cpu", exchange -> {
                exchange.sendResponseHeaders(cpu.add(exchange.getRequestURI().getRawQuery()) ? 204 : 400, -1);
                exchange.close();
            });
            clock.start();
            return new JmeterCluster(addresses, started, properties, controllerHost, clock, cpu);
        } catch (IOException | RuntimeException e) {
            started.forEach(ManagedProcess::close);
            if (clock != null) {
                clock.stop(0);
            }
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** The agents as the controller reaches them, which is also how JMeter names their threads. */
    List<String> addresses() {
        return addresses;
    }

    /** The address the agents reach the lab at: where its clock listens, and the rounds' conductor. */
    String host() {
        return controllerHost;
    }

    /** What the agents reported of their CPU during the load. */
    AgentCpu cpu() {
        return cpu;
    }

    URI clockUrl() {
        return URI.create("http://" + clock.getAddress().getHostString() + ":" + clock.getAddress().getPort() + "/clock");
    }

    /** The controller's JVM options (RMI's own address, for the samples the agents send back) and JMeter options. */
    List<String> controllerJvm() {
        return List.of("-Djava.rmi.server.hostname=" + controllerHost);
    }

    List<String> controllerArgs() {
        List<String> args = new ArrayList<>(List.of("-R", String.join(",", addresses), "-q", properties.toString(),
                // Each agent sends its samples once a second, or 50 ms after its load pauses (a block's end), in one compact
                // batch: 22 bytes a sample where JMeter's StrippedAsynch sent 4.7-30 KB (docs/scale-out.md). A batch comes up
                // to a second late, so seconds are told by each agent's watermark (JmeterReading) and blocks by its count.
                "-Jmode=" + System.getProperty("loomflux.jmeter.mode", SAMPLE_SENDER)));
        for (int i = 0; i < addresses.size(); i++) {
            args.add("-G" + JmeterPlan.AGENT_INDEX + addresses.get(i) + "=" + i);
        }
        return args;
    }

    List<ProcessHandle> processes() {
        return local.stream().flatMap(p -> ProcessHandle.of(p.pid()).stream()).toList();
    }

    /** @throws LabException when an agent the lab started has died */
    void checkAlive() {
        for (int i = 0; i < local.size(); i++) {
            if (!local.get(i).isAlive()) {
                throw new LabException("JMeter agent " + addresses.get(i) + " died (" + local.get(i).exitDescription() + "); its log: " + local.get(i).log());
            }
        }
    }

    /**
     * Ends the agents' part of the load: the clock goes, and each agent's CPU reporter, finding it gone, ends the agent's test
     * within a second ({@link JmeterPlan}'s clock reading); the controller then ends once every agent told it so.
     */
    void endLoad() {
        if (!clockStopped) {
            clockStopped = true;
            clock.stop(0);
        }
    }

    @Override
    public void close() {
        local.forEach(ManagedProcess::close);
        endLoad();
    }

    /** The command that runs an agent bound to {@code address} only, with RMI over SSL as {@code properties} say. */
    static List<String> agentCommand(Path home, String address, Path properties, Path log) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(java, "-Djava.rmi.server.hostname=" + host(address), "-jar", home.resolve("bin").resolve("ApacheJMeter.jar").toString(),
                "-s", "-Jserver_port=" + port(address), "-J" + JmeterProcess.SAMPLE_VARIABLES, "-q", properties.toString(), "-j", log.toString());
    }

    static ManagedProcess startAgent(LabProcesses owner, Path home, String address, Path properties, Path log) {
        return ManagedProcess.start(owner, "jmeter-agent", agentCommand(home, address, properties, log), Path.of(log + ".out"));
    }

    /** Waits until the agent's registry accepts connections. */
    static void awaitAgent(ManagedProcess agent, String address) {
        long deadline = System.nanoTime() + AGENT_START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!agent.isAlive()) {
                throw new LabException("JMeter agent " + address + " exited while starting (" + agent.exitDescription() + "): " + agent.logTail(5));
            }
            if (connects(address, 500)) {
                return;
            }
            Pause.sleep(Duration.ofMillis(200));
        }
        throw new LabException("JMeter agent " + address + " did not listen within " + AGENT_START.toSeconds() + " s; its log: " + agent.log());
    }

    /** JMeter's RMI settings: SSL with client certificates, both ends from one keystore. */
    static void writeProperties(Path file, Path keystore, String password) throws IOException {
        Files.writeString(file, String.join("\n",
                "server.rmi.ssl.keystore.type=PKCS12",
                "server.rmi.ssl.keystore.file=" + keystore.toAbsolutePath(),
                "server.rmi.ssl.keystore.password=" + password,
                "server.rmi.ssl.keystore.alias=rmi",
                "server.rmi.ssl.truststore.type=PKCS12",
                "server.rmi.ssl.truststore.file=" + keystore.toAbsolutePath(),
                "server.rmi.ssl.truststore.password=" + password,
                "") + "\n");
        restrict(file);
    }

    /** A new RSA key and certificate under the alias JMeter's RMI looks for, readable by its owner only. */
    static void makeKeystore(Path file, String password) throws IOException {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        if (!ShortCommand.succeeds(keytool, "-genkeypair", "-keyalg", "RSA", "-keysize", "2048", "-alias", "rmi", "-validity", "365",
                "-dname", "CN=loomflux-jmeter-agents", "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", password, "-keypass", password)) {
            throw new LabException("keytool could not make the agents' keystore " + file);
        }
        restrict(file);
    }

    private static void restrict(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: its own permissions apply.
        }
    }

    /** The worst a clock reading may be known within for the agents' blocks to line up: a tenth of the default 1 s block. */
    static final double MAX_CLOCK_ERROR_MS = 50;
    private static final java.util.regex.Pattern CHECKED = java.util.regex.Pattern.compile("offset_us=(-?\\d+);rtt_us=(\\d+);jmeter=(\\S+)");

    /**
     * Runs the agents' check plan ({@link JmeterPlan#check}) on agents a user started, before any target starts: each must run it
     * over JMeter's RMI with the lab's keystore and sample sender (an agent of another build cannot read the sender), on the
     * controller's JMeter version, and read the lab's clock within {@link #MAX_CLOCK_ERROR_MS}.
     *
     * @return why the agents cannot run the load, naming the first that cannot; null when all can
     */
    static String check(LabProcesses owner, Path home, JmeterAgents agents, String jmeterVersion) {
        Path dir;
        try {
            dir = Files.createTempDirectory("loomflux-agents-check");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (JmeterCluster cluster = start(owner, home, agents, dir)) {
            Files.writeString(dir.resolve("plan.jmx"), JmeterPlan.check(cluster.clockUrl()));
            ManagedProcess jmeter = JmeterProcess.start(owner, home, dir.resolve("plan.jmx"), dir.resolve("out.jtl"), dir.resolve("jmeter.log"),
                    cluster.controllerJvm(), cluster.controllerArgs());
            try {
                jmeter.onExit().copy().completeOnTimeout(null, AGENT_START.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).join();
            } finally {
                jmeter.close();
            }
            List<Jtl.Sample> rows = Files.exists(dir.resolve("out.jtl")) ? Jtl.readAll(dir.resolve("out.jtl")) : List.of();
            for (String a : cluster.addresses()) {
                java.util.regex.Matcher m = rows.stream().filter(r -> r.thread().startsWith(a + "-") && JmeterPlan.CLOCK.equals(r.label()))
                        .map(r -> CHECKED.matcher(r.message())).filter(java.util.regex.Matcher::find).findFirst().orElse(null);
                if (m == null) {
                    List<String> log = Files.readAllLines(dir.resolve("jmeter.log"));
                    String why = log.stream().filter(l -> l.contains("ERROR")).reduce((x, y) -> y).orElse("no error in its log");
                    return "agent " + a + " did not run the lab's check plan over JMeter's RMI (" + why.strip() + ")";
                }
                if (!m.group(3).equals(jmeterVersion)) {
                    return "agent " + a + " runs JMeter " + m.group(3) + ", the lab " + jmeterVersion + ": build the same checkout there";
                }
                double errorMs = Long.parseLong(m.group(2)) / 2000.0;
                if (errorMs > MAX_CLOCK_ERROR_MS) {
                    return String.format(java.util.Locale.ROOT, "agent %s reads the lab's clock only within %.1f ms (limit %.0f): its blocks could not be lined up",
                            a, errorMs, MAX_CLOCK_ERROR_MS);
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            Jmeter.deleteQuietly(dir);
        }
    }

    /** "agent H:P does not answer (...)" when it does not, for an error that names where the agent was given; null when it answers. */
    static String unreachable(String address) {
        return connects(address, CONNECT_TIMEOUT_MS) ? null : "agent " + address + " does not answer (is ./lab agent --bind " + address + " running there?)";
    }

    private static boolean connects(String address, int timeoutMs) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host(address), port(address)), timeoutMs);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static String host(String address) {
        return address.substring(0, address.lastIndexOf(':')).replace("[", "").replace("]", "");
    }

    /** Of a HOST:PORT that {@link JmeterAgents#address} accepted. */
    static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    /** The address of this host on the route to {@code host}: where the agents send their samples back. */
    private static String localAddressTowards(String host) throws IOException {
        InetAddress target = InetAddress.getByName(host);
        if (target.isLoopbackAddress()) {
            return "127.0.0.1";
        }
        try (DatagramSocket s = new DatagramSocket()) {
            s.connect(target, 9);
            return s.getLocalAddress().getHostAddress();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }
}
