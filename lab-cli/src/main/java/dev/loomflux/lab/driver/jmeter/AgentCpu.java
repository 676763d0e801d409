package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.AgentCpuUse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU of each JMeter agent's JVM, which it reports to the lab once a second during its load (JmeterPlan's
 * clock thread group starts the reporter): on a load host of its own, the only view the lab has of whether that
 * agent kept up. Readings carry the agent's clock; the lab moves them onto its own by the agent's clock offset.
 */
public final class AgentCpu {
    /** One report: the agent JVM's CPU time so far at a moment of the agent's clock, and the cores it has. */
    record CpuReport(String thread, long atUs, long cpuNs, int cpus) {
    }

    private final List<CpuReport> readings = new ArrayList<>();

    /** A report's query string: {@code thread=...&at_us=...&cpu_ns=...&cpus=...}; false when it is not one. */
    boolean add(String query) {
        Map<String, String> q = new HashMap<>();
        for (String pair : query == null ? new String[0] : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                q.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        try {
            CpuReport r = new CpuReport(q.get("thread"), Long.parseLong(q.get("at_us")), Long.parseLong(q.get("cpu_ns")), Integer.parseInt(q.get("cpus")));
            if (r.thread() == null) {
                return false;
            }
            synchronized (readings) {
                readings.add(r);
            }
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The intervals between consecutive reports of {@code agent} (its threads are named after it) that end
     * inside {@code fromMs..toMs} of the lab's clock, the agent's clock moved by {@code offsetMs}; null when
     * there are none, as when the agent reported nothing.
     */
    AgentCpuUse over(String agent, long fromMs, long toMs, double offsetMs) {
        List<CpuReport> mine;
        synchronized (readings) {
            mine = readings.stream().filter(r -> r.thread().startsWith(agent + "-")).sorted(Comparator.comparingLong(CpuReport::atUs)).toList();
        }
        long cpuNs = 0;
        long spanUs = 0;
        double max = 0;
        for (int i = 1; i < mine.size(); i++) {
            CpuReport a = mine.get(i - 1);
            CpuReport b = mine.get(i);
            double endMs = b.atUs() / 1000.0 - offsetMs;
            if (endMs <= fromMs || endMs > toMs || b.atUs() <= a.atUs()) {
                continue;
            }
            cpuNs += b.cpuNs() - a.cpuNs();
            spanUs += b.atUs() - a.atUs();
            max = Math.max(max, 100.0 * (b.cpuNs() - a.cpuNs()) / 1000.0 / (b.atUs() - a.atUs()));
        }
        return spanUs == 0 ? null : new AgentCpuUse(mine.get(0).cpus(), 100.0 * cpuNs / 1000.0 / spanUs, max);
    }
}
