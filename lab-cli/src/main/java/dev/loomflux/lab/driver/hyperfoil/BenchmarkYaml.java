package dev.loomflux.lab.driver.hyperfoil;

import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.driver.Rounds;
import java.util.stream.IntStream;
import dev.loomflux.lab.experiment.Think;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A plan as a Hyperfoil 0.25.2 benchmark in its YAML format. Hyperfoil has no writer for it, so the
 * lab renders it, and embedded runs are parsed from this same text: what a controller would run
 * when the lab scales out is what runs in-process, but for one handler of the lab's own that a stock
 * Hyperfoil does not have ({@link ConnectionClose}: a response with {@code Connection: close} is a
 * reconnection, not a connection error), which only the text run in the lab names.
 */
final class BenchmarkYaml {

    private BenchmarkYaml() {
    }

    /** @param inLab run inside the lab, with its own handlers; false: for a stock Hyperfoil */
    static String render(LoadSpec spec, PhasePlan plan, String name, boolean inLab) {
        StringBuilder y = new StringBuilder();
        y.append("# loomflux load profile ").append(spec.profile()).append('\n');
        withoutLab(y, inLab, spec.mix() != null);
        y.append("name: ").append(quote(name)).append('\n');
        y.append("threads: ").append(spec.threads()).append('\n');
        y.append("http:\n");
        endpoint(y, "  ", spec.authority(), plan.connections(), spec.requestTimeout().toMillis());
        ergonomics(y);
        y.append("phases:\n");
        Set<Integer> scenarios = new HashSet<>();
        for (PhasePlan.LoadPhase p : plan.phases()) {
            model(y, p);
            if (p.startMs() > 0) {
                y.append("      startTime: ").append(p.startMs()).append("ms\n");
            }
            if (p.durationMs() >= 0) {
                y.append("      duration: ").append(p.durationMs()).append("ms\n");
            }
            // Phases share scenarios through YAML anchors: a 60 s ramp has dozens of phases.
            String anchor = "requests-" + p.requests();
            if (scenarios.add(p.requests())) {
                y.append("      scenario: &").append(anchor).append('\n');
                scenario(y, spec, null, p.requests(), plan.think(), plan.phases().stream().mapToInt(PhasePlan.LoadPhase::users).sum(), inLab);
            } else {
                y.append("      scenario: *").append(anchor).append('\n');
            }
        }
        return y.toString();
    }

    /**
     * Interleaved rounds: one phase per target, each block one iteration of it ({@code t0/000},
     * {@code t0/001}, ...), so that a target's blocks share its users and statistics, and every
     * target has a connection pool of its own that stays open from the first block to the last.
     * The phases carry no start times: the runner starts each block when the one before it is over.
     */
    static String render(Rounds rounds, String name, boolean inLab) {
        List<LoadSpec> targets = IntStream.range(0, rounds.targets().size()).mapToObj(rounds::spec).toList();
        PhasePlan block = rounds.blockPlan();
        int blocks = rounds.order().size();
        long requestTimeoutMs = rounds.requestTimeout().toMillis();
        int threads = rounds.threads();
        StringBuilder y = new StringBuilder();
        y.append("# loomflux interleaved rounds: ").append(blocks).append(" blocks per target\n");
        withoutLab(y, inLab, rounds.mix() != null);
        y.append("name: ").append(quote(name)).append('\n');
        y.append("threads: ").append(threads).append('\n');
        y.append("http:\n");
        for (LoadSpec t : targets) {
            endpoint(y, "- ", t.authority(), block.connections(), requestTimeoutMs);
        }
        ergonomics(y);
        y.append("phases:\n");
        PhasePlan.LoadPhase p = block.phases().get(0);
        for (int i = 0; i < targets.size(); i++) {
            model(y, new PhasePlan.LoadPhase(PhasePlan.phaseName(i), p.model(), p.users(), p.maxInFlight(), p.rps(), 0, p.durationMs(), p.requests()));
            y.append("      duration: ").append(p.durationMs()).append("ms\n");
            y.append("      maxIterations: ").append(blocks).append('\n');
            y.append("      scenario:\n");
            scenario(y, targets.get(i), URI.create(targets.get(i).authority()).getAuthority(), p.requests(), block.think(), p.users(), inLab);
        }
        return y.toString();
    }

    /** What a stock Hyperfoil does differently from the lab with this file, and what it needs of the lab for flows. */
    private static void withoutLab(StringBuilder y, boolean inLab, boolean flows) {
        if (!inLab) {
            y.append("# Run by Hyperfoil itself, a response with \"Connection: close\" may count as a connection error (the lab reconnects)\n");
            if (flows) {
                y.append("# Its flows use the lab's own steps (loomflux-iteration, loomflux-record): a Hyperfoil controller needs the lab's jar among its extensions\n");
            }
        }
    }

    /** One connection pool per target, opened before the load starts; keep-alive, one request at a time. */
    private static void endpoint(StringBuilder y, String first, String authority, int connections, long requestTimeoutMs) {
        y.append(first).append("host: ").append(quote(authority)).append('\n');
        y.append("  allowHttp2: false\n");
        y.append("  connectionStrategy: SHARED_POOL\n");
        y.append("  sharedConnections: ").append(connections).append('\n');
        y.append("  pipeliningLimit: 1\n");
        y.append("  requestTimeout: ").append(requestTimeoutMs).append("ms\n");
    }

    private static void ergonomics(StringBuilder y) {
        y.append("ergonomics:\n");
        // No headers the lab did not ask for.
        y.append("  repeatCookies: false\n");
        y.append("  userAgentFromSession: false\n");
        // A 4xx/5xx is counted by status and the user carries on, instead of the user being stopped.
        y.append("  autoRangeCheck: false\n");
        y.append("  stopOnInvalid: false\n");
    }

    private static void model(StringBuilder y, PhasePlan.LoadPhase p) {
        y.append("- ").append(p.name()).append(":\n");
        switch (p.model()) {
            case ALWAYS -> y.append("    always:\n      users: ").append(p.users()).append('\n');
            case AT_ONCE -> y.append("    atOnce:\n      users: ").append(p.users()).append('\n');
            case CONSTANT_RATE -> y.append("    constantRate:\n")
                    .append("      usersPerSec: ").append(p.rps()).append('\n')
                    .append("      variance: false\n")
                    .append("      maxSessions: ").append(p.maxInFlight()).append('\n');
        }
    }

    /**
     * @param authority host:port of the request's target when the benchmark has several, else null
     * @param think     the pause after each response (after each iteration, for flows); a user pausing at a
     *                  phase's end sends nothing more
     * @param users     the sessions of one target's load, by which a flow's iterations tell their users apart
     * @param inLab     with the lab's handler of {@code Connection: close}
     */
    private static void scenario(StringBuilder y, LoadSpec spec, String authority, int requests, Think think, int users, boolean inLab) {
        if (spec.mix() != null) {
            FlowYaml.scenario(y, "        ", spec, authority, think, users, inLab);
            return;
        }
        String path = spec.requestPath();
        y.append("      - ").append(PhasePlan.METRIC).append(":\n");
        String indent = "        ";
        if (requests > 1) {
            y.append(indent).append("- loop:\n");
            y.append(indent).append("    counterVar: i\n");
            y.append(indent).append("    repeats: ").append(requests).append('\n');
            y.append(indent).append("    steps:\n");
            indent += "    ";
        }
        y.append(indent).append("- httpRequest:\n");
        y.append(indent).append("    GET: ").append(quote(path)).append('\n');
        if (authority != null) {
            y.append(indent).append("    authority: ").append(quote(authority)).append('\n');
        }
        y.append(indent).append("    metric: ").append(PhasePlan.METRIC).append('\n');
        // Hyperfoil 0.25.2 caches GET responses per session, so a user's repeated GET would be
        // answered locally. no-store keeps every request on the wire; no-cache would make it
        // revalidate, which 0.25.2 gets wrong on HTTP/1.1.
        y.append(indent).append("    headers:\n");
        y.append(indent).append("      cache-control: no-store\n");
        y.append(indent).append("    handler:\n");
        if (inLab) {
            y.append(indent).append("      header:\n");
            y.append(indent).append("      - ").append(ConnectionClose.NAME).append(": {}\n");
        }
        y.append(indent).append("      rawBytes:\n");
        y.append(indent).append("      - transferSizeRecorder:\n");
        y.append(indent).append("          key: ").append(PhasePlan.TRANSFER).append('\n');
        thinkTime(y, indent, think);
    }

    /** A pause, when there is one, in a list of steps at {@code indent}. */
    static void thinkTime(StringBuilder y, String indent, Think think) {
        if (think.none()) {
            return;
        }
        // From the response on (fromNow), in whole ms: Hyperfoil schedules the session on its event loop's timer.
        y.append(indent).append("- thinkTime:\n");
        if (think.min().equals(think.max())) {
            y.append(indent).append("    duration: ").append(think.min().toMillis()).append("ms\n");
        } else {
            y.append(indent).append("    random: LINEAR\n");
            y.append(indent).append("    min: ").append(think.min().toMillis()).append("ms\n");
            y.append(indent).append("    max: ").append(think.max().toMillis()).append("ms\n");
        }
    }

    /** A YAML double-quoted scalar. */
    static String quote(String s) {
        StringBuilder q = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        q.append(String.format("\\x%02x", (int) c));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }
}
