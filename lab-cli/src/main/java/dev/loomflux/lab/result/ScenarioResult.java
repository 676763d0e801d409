package dev.loomflux.lab.result;

import dev.loomflux.lab.driver.Errors;
import dev.loomflux.lab.driver.Measurement;
import dev.loomflux.lab.driver.Second;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** One target x scenario entry of results.json, in the documented field names. */
public final class ScenarioResult {
    private ScenarioResult() {
    }

    public static Map<String, Object> failed(String target, String scenario, String error) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", target);
        m.put("scenario", scenario);
        m.put("status", "failed");
        m.put("error", error);
        return m;
    }

    public static Map<String, Object> of(String target, String scenario, Measurement m, boolean openModel) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("target", target);
        r.put("scenario", scenario);
        r.put("status", "ok");
        double seconds = m.elapsed().toMillis() / 1000.0;
        r.put("duration_s", round(seconds));
        r.put("requests", m.requests());
        r.put("responses", m.responses());
        r.put("throughput_rps", round(seconds > 0 ? m.responses() / seconds : 0));
        r.put("latency_ms", latency(m.latency()));
        r.put("errors", errors(m.errors()));
        Map<String, Object> bytes = new LinkedHashMap<>();
        bytes.put("sent", m.bytesSent());
        bytes.put("received", m.bytesReceived());
        r.put("bytes", bytes);
        r.put("behind_schedule", openModel ? m.behindSchedule() : null);
        r.put("cache_hits", m.cacheHits());
        List<Map<String, Object>> series = new ArrayList<>();
        for (Second s : m.series()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("t", s.t());
            p.put("rps", round(s.rps()));
            p.put("p50", finite(s.p50Ms()));
            p.put("p99", finite(s.p99Ms()));
            p.put("errors", s.errors());
            p.put("users", s.users());
            if (openModel) {
                p.put("intended", s.intended());
                p.put("sent", s.requests());
            }
            series.add(p);
        }
        r.put("series", series);
        return r;
    }

    static Map<String, Object> latency(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        boolean empty = h.getTotalCount() == 0;
        m.put("mean", empty ? null : ms(h.getMean()));
        m.put("p50", empty ? null : ms(h.getValueAtPercentile(50)));
        m.put("p90", empty ? null : ms(h.getValueAtPercentile(90)));
        m.put("p95", empty ? null : ms(h.getValueAtPercentile(95)));
        m.put("p99", empty ? null : ms(h.getValueAtPercentile(99)));
        m.put("p999", empty ? null : ms(h.getValueAtPercentile(99.9)));
        m.put("max", empty ? null : ms(h.getMaxValue()));
        return m;
    }

    static Map<String, Object> errors(Errors e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total", e.total());
        m.put("connect", e.connect());
        m.put("timeout", e.timeout());
        m.put("4xx", e.status4xx());
        m.put("5xx", e.status5xx());
        m.put("other", e.other());
        return m;
    }

    private static double ms(double nanos) {
        return round(nanos / 1_000_000.0);
    }

    /** Rounded, or null for a figure that does not exist (NaN: a second without responses has no percentiles). */
    public static Double finite(double v) {
        return Double.isFinite(v) ? round(v) : null;
    }

    public static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
