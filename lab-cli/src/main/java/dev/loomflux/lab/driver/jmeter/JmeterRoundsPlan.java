package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.LoadSpec;
import dev.loomflux.lab.driver.Rounds;
import dev.loomflux.lab.experiment.Think;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** The paired design's interleaved rounds as a JMeter plan ({@link #renderRounds}), on the pieces of {@link JmeterPlan}. */
final class JmeterRoundsPlan {
    private JmeterRoundsPlan() {
    }

    /** The JMeter property that holds the lab's address for the rounds' conductor. */
    static final String LAB = "loomflux.lab";
    /** The rounds' thread group of target {@code i} is named this, then i. */
    static final String ROUNDS_GROUP = "t";
    /** The gate the rounds' users and conductor share, in JMeter's properties: made by whichever comes first. */
    private static final String GATE = """
            def g = props.computeIfAbsent('loomflux.gate', { k -> [lock: new Object(), active: -1, sent: 0L, inflight: 0L] } as java.util.function.Function)
            """;
    /** A user passes the gate of its target (the parameter) only while that target's block runs; it is then in flight. */
    private static final String PASS = GATE + """
            int me = Integer.parseInt(Parameters.trim())
            synchronized (g.lock) {
                while (g.active != me) {
                    g.lock.wait(100)
                }
                g.sent++
                g.inflight++
            }
            """;
    /** What a user that passed the gate sent has ended. */
    private static final String RELEASE = """
            synchronized (g.lock) {
                g.inflight--
                g.lock.notifyAll()
            }
            """;

    /**
     * Interleaved rounds as a JMeter plan, conducted by the lab: each target's users are a thread group of
     * their own that lives through every round, so their connections stay open from the first block to the
     * last (as Hyperfoil's pool does), and each request, or each iteration of a flow, first passes a gate that
     * is open only during that target's block. A conductor thread asks the lab for the next block over HTTP
     * ({@link #LAB}), opens the gate for it, closes it when the block's time is up, waits until every request
     * (iteration) that passed the gate in the block has ended, and tells the lab when and how many, which answers
     * once it has counted them: the next block starts only then, as Hyperfoil's next phase starts after the last
     * one terminated, its sessions' iterations finished.
     *
     * <p>On agents every agent runs the whole plan, its part of each target's users, and a conductor of its own
     * that asks the one lab: the lab answers every agent's conductor with the same block, its start and end on the
     * lab's clock, once all of them have asked, and each opens and closes its gate at those times on its own clock
     * (moved by the offset it read before the load), so all agents measure the same target in the same block.
     * When the lab says "done", or cannot be reached, the conductor ends the agent's test: the users waiting at the
     * gate would otherwise keep the agent busy after the controller is gone.
     */
    static String renderRounds(Rounds rounds, String name) {
        return renderRounds(rounds, name, JmeterPlan.Split.NONE);
    }

    static String renderRounds(Rounds rounds, String name, JmeterPlan.Split split) {
        if (!(rounds.block() instanceof dev.loomflux.lab.experiment.LoadProfile.Fixed fixed)) {
            throw new IllegalArgumentException("JMeter's rounds run fixed blocks only, not " + rounds.block().kind());
        }
        Document doc = Jmx.newDocument();
        Element inPlan = JmeterPlan.testPlan(doc, name, rounds.spec(0));
        if (split.clock() != null) {
            JmeterPlan.clock(inPlan, split.clock());
        }
        Think think = rounds.blockPlan().think();
        for (int i = 0; i < rounds.targets().size(); i++) {
            LoadSpec target = rounds.spec(i);
            Element g = Jmx.unscheduled(inPlan, "ThreadGroup", ROUNDS_GROUP + i, split.users(fixed.users()), -1, JmeterPlan.onError(target));
            Jmx.bool(g, "ThreadGroup.same_user_on_next_iteration", true);
            Element tree = Jmx.child(inPlan, "hashTree");
            String me = Integer.toString(i);
            if (target.mix() != null) {
                // An iteration passes the gate before its draws and ends with its flow's transaction sample, which
                // the Transaction Controller also writes when a failed step ends the iteration (SampleMetrics).
                JmeterFlows.iteration(tree, target, new JmeterFlows.Users(0, split.agents(), fixed.users()), think, true,
                        start -> Jmx.script(start, "JSR223PreProcessor", "gate", me, PASS));
                Jmx.script(tree, "JSR223Listener", "release", "", GATE + "if (sampleEvent.isTransactionSampleEvent()) {\n" + RELEASE + "}\n");
                continue;
            }
            Element s = JmeterPlan.request(tree, target);
            JmeterPlan.target(s, target);
            Element inSampler = Jmx.child(tree, "hashTree");
            Jmx.script(inSampler, "JSR223PreProcessor", "gate", me, PASS);
            // The think time is a pause after the response, before the gate: a pause behind the gate would send after the block.
            String pause = think.none() ? "0 0" : think.min().toMillis() + " " + think.max().toMillis();
            Jmx.script(inSampler, "JSR223PostProcessor", "release", pause, GATE + RELEASE + """
                    def pause = Parameters.trim().split(' ').collect { it as long }
                    if (pause[1] > 0) {
                        Thread.sleep(pause[0] + (long) (Math.random() * (pause[1] - pause[0])))
                    }
                    """);
        }
        Jmx.unscheduled(inPlan, "ThreadGroup", "conductor", "1", 1, "continue");
        Element tree = Jmx.child(inPlan, "hashTree");
        // The lab's address, and this agent's index (0 on one JMeter); a lab that stops answering for longer than a block
        // and the longest request ends the conductor.
        long patienceMs = rounds.block().plannedDuration().toMillis() + rounds.requestTimeout().toMillis() + 60_000;
        Jmx.script(tree, "JSR223Sampler", "conductor", "${__P(" + LAB + ")} ${__P(" + JmeterPlan.AGENT_INDEX + "${__P(__jm.D_TG,)},0)}", GATE + """
                def (lab, agent) = Parameters.trim().split(' ').toList()
                long offsetUs = (props.get('%s') ?: 0L) as long
                long rttUs = (props.get('%s') ?: 0L) as long
                long offsetMs = Math.round(offsetUs / 1000.0d)
                def ask = { String path ->
                    def c = new URL(lab + path).openConnection()
                    c.connectTimeout = 5000
                    c.readTimeout = %d
                    c.inputStream.text.trim()
                }
                def sleepUntil = { long at ->
                    long left = at - System.currentTimeMillis()
                    if (left > 0) {
                        Thread.sleep(left)
                    }
                }
                try {
                    while (true) {
                        def next = ask('/next?agent=' + agent + '&offset_us=' + offsetUs + '&rtt_us=' + rttUs)
                        if (next == 'done') {
                            break
                        }
                        def block = next.split(' ').collect { it as long }
                        sleepUntil(block[1] + offsetMs)
                        long start
                        synchronized (g.lock) {
                            g.sent = 0L
                            g.active = (int) block[0]
                            start = System.currentTimeMillis()
                            g.lock.notifyAll()
                        }
                        sleepUntil(block[2] + offsetMs)
                        long sendEnd
                        long sent
                        synchronized (g.lock) {
                            g.active = -1
                            sendEnd = System.currentTimeMillis()
                            while (g.inflight > 0) {
                                g.lock.wait(100)
                            }
                            sent = g.sent
                        }
                        long end = System.currentTimeMillis()
                        ask('/ended?agent=' + agent + '&target=' + block[0] + '&sent=' + sent + '&start=' + start + '&sendEnd=' + sendEnd + '&end=' + end)
                    }
                } finally {
                    ctx.engine.stopTest(true)
                }
                """.formatted(JmeterPlan.OFFSET, JmeterPlan.RTT, patienceMs));
        return Jmx.write(doc);
    }
}
