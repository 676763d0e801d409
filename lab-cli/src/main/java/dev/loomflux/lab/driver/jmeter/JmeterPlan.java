package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.PhasePlan;
import dev.loomflux.lab.experiment.Think;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.util.List;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * A plan as an Apache JMeter 5.6 test plan (.jmx), from the same {@link PhasePlan} the Hyperfoil
 * benchmark is rendered from: each phase one thread group. A closed phase is a ThreadGroup of its
 * users, started after its delay and stopped after its duration (JMeter counts both in whole
 * seconds); a burst's users each send their requests and stop; the loops' users start over JMeter's
 * own ramp-up; the rate profile is an OpenModelThreadGroup with even arrivals, as Hyperfoil's
 * metronome. Every user is a thread with its own keep-alive connection, as in Hyperfoil's pool.
 */
final class JmeterPlan {
    /** The sampler's label, the JTL's {@code label} column. */
    static final String LABEL = PhasePlan.METRIC;
    static final long CONNECT_TIMEOUT_MS = 2_000;
    /** The clock reading's label: one row per agent, before any request. */
    static final String CLOCK = "clock";
    /** The JMeter property (sent to every agent with -G) that holds an agent's index, after this prefix its address. */
    static final String AGENT_INDEX = "loomflux.agent.";
    /**
     * The JMeter variable that holds 1 when a response closed its connection ({@code Connection: close}) and 0
     * otherwise; JMeter writes it into the results file as a column of that name when its property
     * {@code sample_variables} names it ({@link JmeterProcess}).
     */
    static final String CLOSED = "loomflux_closed";

    /**
     * How a plan is shared out: JMeter's agents each run the whole plan, so each takes its part of every
     * user count and rate. An agent's part of a user count that does not divide evenly is computed on
     * the agent from its index, which the lab sends it as {@link #AGENT_INDEX}{@code <address>} (JMeter
     * names each agent's threads by the address the controller reached it at, {@code __jm.D_TG}).
     *
     * @param agents how many run the plan; 1 for one local JMeter
     * @param clock  where each agent reads the lab's clock before its load (null: no reading)
     */
    record Split(int agents, URI clock) {
        static final Split NONE = new Split(1, null);

        Split {
            if (agents < 1) {
                throw new IllegalArgumentException("agents " + agents);
            }
        }

        /** One agent's part of {@code users}: the first {@code users % agents} agents take one more. */
        String users(int users) {
            int each = users / agents;
            int more = users % agents;
            if (more == 0) {
                return Integer.toString(each);
            }
            return "${__jexl3(${__P(" + AGENT_INDEX + "${__P(__jm.D_TG,)},0)} < " + more + " ? " + (each + 1) + " : " + each + ")}";
        }

        /** One agent's part of a rate, per second: rates need not be whole. */
        String rate(int rps) {
            return agents == 1 ? Integer.toString(rps) : BigDecimal.valueOf(rps).divide(BigDecimal.valueOf(agents),
                    6, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
        }
    }

    /** The JMeter property where an agent's clock reading leaves its offset from the lab's clock for the conductor, µs; and the reading's round trip. */
    static final String OFFSET = "loomflux.offset_us";
    static final String RTT = "loomflux.rtt_us";

    private JmeterPlan() {
    }

    static String render(LoadSpec spec, PhasePlan plan, String name) {
        return render(spec, plan, name, Split.NONE);
    }

    static String render(LoadSpec spec, PhasePlan plan, String name, Split split) {
        Document doc = Jmx.newDocument();
        Element inPlan = testPlan(doc, name, spec);
        if (split.clock() != null) {
            clock(inPlan, split.clock());
        }

        List<PhasePlan.LoadPhase> phases = plan.phases();
        int users = phases.stream().mapToInt(PhasePlan.LoadPhase::users).sum();
        if (plan.loops()) {
            // The loops' users start over 1 s in 20 ms slots for Hyperfoil; JMeter ramps them up itself.
            threadGroup(inPlan, "loops", split.users(users), PhasePlan.LOOPS_RAMP_UP_MS, 0, -1, phases.get(0).requests(),
                    new Work(spec, plan.think(), new JmeterFlows.Users(0, split.agents(), users)));
        } else {
            int first = 0;
            for (PhasePlan.LoadPhase p : phases) {
                Work work = new Work(spec, plan.think(), new JmeterFlows.Users(first, split.agents(), users));
                switch (p.model()) {
                    case ALWAYS -> threadGroup(inPlan, p.name(), split.users(p.users()), 0, p.startMs(), p.durationMs(), -1, work);
                    case AT_ONCE -> threadGroup(inPlan, p.name(), split.users(p.users()), 0, p.startMs(), -1, p.requests(), work);
                    case CONSTANT_RATE -> openModel(inPlan, p, split.rate(p.rps()), work);
                }
                first += p.users();
            }
        }
        return Jmx.write(doc);
    }

    /**
     * The agents' check before a run: their clock reading alone, which reaches each agent over JMeter's RMI with the lab's sample
     * sender, reads the lab's clock and says which JMeter runs it ({@link JmeterCluster#check}).
     */
    static String check(URI clock) {
        Document doc = Jmx.newDocument();
        clock(emptyPlan(doc, "loomflux-agents-check"), clock);
        return Jmx.write(doc);
    }

    /** A test plan named {@code name} with nothing in it; returns the plan's tree. */
    private static Element emptyPlan(Document doc, String name) {
        Element root = doc.createElement("jmeterTestPlan");
        root.setAttribute("version", "1.2");
        root.setAttribute("properties", "5.0");
        root.setAttribute("jmeter", "5.6.3");
        doc.appendChild(root);
        Element top = Jmx.child(root, "hashTree");
        Element testPlan = Jmx.element(top, "TestPlan", "TestPlanGui", name);
        Jmx.bool(testPlan, "TestPlan.functional_mode", false);
        Jmx.bool(testPlan, "TestPlan.serialize_threadgroups", false);
        Jmx.arguments(testPlan, "TestPlan.user_defined_variables");
        return Jmx.child(top, "hashTree");
    }

    /** The test plan and the defaults every request shares (the target, timeouts, the HTTP client); returns the plan's tree. */
    static Element testPlan(Document doc, String name, LoadSpec spec) {
        Element inPlan = emptyPlan(doc, name);

        Element defaults = Jmx.element(inPlan, "ConfigTestElement", "HttpDefaultsGui", "target");
        Jmx.string(defaults, "HTTPSampler.protocol", spec.base().getScheme());
        Jmx.string(defaults, "HTTPSampler.domain", spec.base().getHost());
        Jmx.string(defaults, "HTTPSampler.port", Integer.toString(spec.base().getPort() == -1 ? 80 : spec.base().getPort()));
        Jmx.string(defaults, "HTTPSampler.connect_timeout", Long.toString(CONNECT_TIMEOUT_MS));
        Jmx.string(defaults, "HTTPSampler.response_timeout", Long.toString(spec.requestTimeout().toMillis()));
        Jmx.string(defaults, "HTTPSampler.implementation", "HttpClient4");
        Jmx.arguments(defaults, "HTTPsampler.Arguments");
        Jmx.child(inPlan, "hashTree");
        closed(inPlan);
        return inPlan;
    }

    /**
     * After every sample, {@link #CLOSED} from the response's headers. JMeter's HTTP client (HttpClient 4) closes a
     * connection whose response says {@code Connection: close} and opens a new one for the next request, so such a
     * response is no error, but the results file would not show the reconnection: its {@code Connect} column is in
     * whole ms, and a connect on loopback takes less. JMeter writes the headers one a line ("\n").
     */
    static void closed(Element parent) {
        Element e = Jmx.element(parent, "RegexExtractor", "RegexExtractorGui", "closed");
        Jmx.string(e, "RegexExtractor.useHeaders", "true");
        Jmx.string(e, "RegexExtractor.refname", CLOSED);
        Jmx.string(e, "RegexExtractor.regex", "(?i)\\nconnection:[^\\n]*\\bclose\\b");
        Jmx.string(e, "RegexExtractor.template", "1");
        Jmx.string(e, "RegexExtractor.default", "0");
        Jmx.string(e, "RegexExtractor.match_number", "1");
        Jmx.child(parent, "hashTree");
    }

    /**
     * What a thread group's users do in each iteration: one request, or a flow of a mix ({@link JmeterFlows}).
     *
     * @param think the pause after each iteration
     * @param users who the group's users are among the load's, by which a flow's draws tell them apart
     */
    private record Work(LoadSpec spec, Think think, JmeterFlows.Users users) {
        void fill(Element tree) {
            if (spec.mix() == null) {
                sampler(tree, spec, think);
            } else {
                JmeterFlows.iteration(tree, spec, users, think, false, gate -> { });
            }
        }

    }

    /**
     * A failed request is counted and the user carries on, as with Hyperfoil; in a flow, the user's iteration ends with
     * it and the next starts over, as Hyperfoil's session stops and starts again.
     */
    static String onError(LoadSpec spec) {
        return spec.mix() == null ? "continue" : "startnextloop";
    }

    /**
     * @param durationMs -1: until each user has sent {@code loops} requests
     * @param loops      -1: until the duration is over
     */
    private static void threadGroup(Element parent, String name, String users, long rampMs, long startMs, long durationMs, int loops, Work work) {
        Element g = Jmx.element(parent, "ThreadGroup", "ThreadGroupGui", name);
        Jmx.string(g, "ThreadGroup.on_sample_error", onError(work.spec()));
        Jmx.loop(g, loops);
        Jmx.string(g, "ThreadGroup.num_threads", users);
        Jmx.string(g, "ThreadGroup.ramp_time", Long.toString(seconds(rampMs)));
        boolean scheduled = durationMs >= 0 || startMs > 0;
        Jmx.bool(g, "ThreadGroup.scheduler", scheduled);
        if (scheduled) {
            Jmx.string(g, "ThreadGroup.duration", durationMs >= 0 ? Long.toString(seconds(durationMs)) : "");
            Jmx.string(g, "ThreadGroup.delay", Long.toString(seconds(startMs)));
        }
        Jmx.bool(g, "ThreadGroup.same_user_on_next_iteration", true);
        work.fill(Jmx.child(parent, "hashTree"));
    }

    private static void openModel(Element parent, PhasePlan.LoadPhase p, String rps, Work work) {
        LoadSpec spec = work.spec();
        Element g = Jmx.element(parent, "OpenModelThreadGroup", "OpenModelThreadGroupGui", p.name());
        Jmx.string(g, "ThreadGroup.on_sample_error", onError(work.spec()));
        Element controller = Jmx.child(g, "elementProp");
        controller.setAttribute("name", "ThreadGroup.main_controller");
        controller.setAttribute("elementType", "OpenModelThreadGroupController");
        // Even arrivals, as Hyperfoil's metronome: Poisson arrivals would make seconds differ by chance. Then a pause as
        // long as a request may take, without which JMeter interrupts the requests in flight when the arrivals end
        // ("Socket closed"), where Hyperfoil lets them finish (docs/scale-out.md, "The second driver").
        Jmx.string(g, "OpenModelThreadGroup.schedule", "rate(" + rps + "/sec) even_arrivals(" + seconds(p.durationMs())
                + " sec) pause(" + (spec.requestTimeout().toMillis() + 999) / 1000 + " sec)");
        Jmx.string(g, "OpenModelThreadGroup.random_seed", "");
        new Work(spec, Think.NONE, work.users()).fill(Jmx.child(parent, "hashTree"));
    }

    /**
     * Before its load, each agent reads the lab's clock a few times as NTP does (its own clock before and
     * after, the lab's in between) and keeps the reading with the shortest round trip: its offset from the
     * lab's clock within half that round trip. The lab moves the agent's send times by it. Readings 20 ms
     * apart: the agent's JVM is starting then and shares a core with the controller, so readings back to
     * back all wait behind it (docs/scale-out.md, "Agents: N load hosts"). Then a daemon thread reports the
     * agent JVM's CPU time to the lab each second until the lab's server is gone with the load, and then ends the agent's test
     * if it still runs: the lab cuts a load when its window is measured, and an agent on another host, which the lab cannot stop,
     * would run its plan to the end, busy ("Engine is busy") when the lab's next load comes. Its users finish their requests
     * (JMeter's shutdown, not its stop: a stop that cannot end a thread within seconds exits the agent's JVM)
     * ({@link AgentCpu}): an agent lives on after the load, ready for the next.
     */
    static void clock(Element parent, URI url) {
        Jmx.unscheduled(parent, "SetupThreadGroup", CLOCK, "1", 1, "continue");
        Element tree = Jmx.child(parent, "hashTree");
        Jmx.script(tree, "JSR223Sampler", CLOCK, "", """
                def url = new URL('%s')
                def now = { def i = java.time.Instant.now(); i.epochSecond * 1000000L + i.nano.intdiv(1000) }
                long bestRtt = Long.MAX_VALUE
                long bestOffset = 0
                for (int i = 0; i < 30; i++) {
                    if (i > 0) {
                        Thread.sleep(20)
                    }
                    long before = now()
                    long lab = url.text.trim() as long
                    long after = now()
                    if (after - before < bestRtt) {
                        bestRtt = after - before
                        bestOffset = (before + after).intdiv(2) - lab
                    }
                }
                SampleResult.setResponseMessage('offset_us=' + bestOffset + ';rtt_us=' + bestRtt + ';jmeter=' + org.apache.jmeter.util.JMeterUtils.getJMeterVersion())
                props.put('%s', bestOffset)
                props.put('%s', bestRtt)
                // An agent lives on from load to load: the rounds' gate of its last load, left as its users were stopped, goes.
                props.remove('loomflux.gate')
                def os = java.lang.management.ManagementFactory.operatingSystemMXBean
                def report = '%s?thread=' + URLEncoder.encode(ctx.thread.threadName, 'UTF-8') + '&cpus=' + Runtime.runtime.availableProcessors()
                def engine = ctx.engine
                Thread.startDaemon('loomflux-cpu') {
                    while (true) {
                        try {
                            def c = new URL(report + '&at_us=' + now() + '&cpu_ns=' + os.processCpuTime).openConnection()
                            c.connectTimeout = 2000
                            c.readTimeout = 2000
                            c.responseCode
                            c.disconnect()
                        } catch (IOException e) {
                            if (engine.isActive()) {
                                engine.stopTest(false)
                            }
                            return
                        }
                        Thread.sleep(1000)
                    }
                }
                """.formatted(url, OFFSET, RTT, url.resolve("cpu")));
    }

    private static void sampler(Element tree, LoadSpec spec, Think think) {
        request(tree, spec);
        Element inSampler = Jmx.child(tree, "hashTree");
        if (think.none()) {
            return;
        }
        // After each response, in whole ms: a fixed pause, or uniform in min..max.
        pause(inSampler, think);
    }

    /** A timer: a fixed pause, or uniform in min..max, in whole ms, before the sampler (or the Flow Control Action) it belongs to. */
    static void pause(Element tree, Think think) {
        Element timer = Jmx.element(tree, "UniformRandomTimer", "UniformRandomTimerGui", "think");
        Jmx.string(timer, "ConstantTimer.delay", Long.toString(think.min().toMillis()));
        Jmx.string(timer, "RandomTimer.range", Long.toString(think.max().toMillis() - think.min().toMillis()));
        Jmx.child(tree, "hashTree");
    }

    /** A sampler's own target, where a plan has several (the rounds'): the plan's defaults hold the first. */
    static void target(Element sampler, LoadSpec spec) {
        Jmx.string(sampler, "HTTPSampler.protocol", spec.base().getScheme());
        Jmx.string(sampler, "HTTPSampler.domain", spec.base().getHost());
        Jmx.string(sampler, "HTTPSampler.port", Integer.toString(spec.base().getPort() == -1 ? 80 : spec.base().getPort()));
    }

    static Element request(Element tree, LoadSpec spec) {
        Element s = Jmx.element(tree, "HTTPSamplerProxy", "HttpTestSampleGui", LABEL);
        Jmx.string(s, "HTTPSampler.path", spec.requestPath());
        Jmx.string(s, "HTTPSampler.method", "GET");
        Jmx.bool(s, "HTTPSampler.use_keepalive", true);
        Jmx.bool(s, "HTTPSampler.follow_redirects", false);
        Jmx.bool(s, "HTTPSampler.auto_redirects", false);
        Jmx.arguments(s, "HTTPsampler.Arguments");
        return s;
    }

    /**
     * JMeter's thread groups count delays and durations in whole seconds: a part of a second is rounded up
     * (a measured window is cut by the lab, not by the plan's end).
     */
    static long seconds(long ms) {
        return (ms + 999) / 1000;
    }

}
