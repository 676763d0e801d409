package dev.loomflux.lab.measure;

import dev.loomflux.lab.driver.Errors;
import dev.loomflux.lab.driver.FlowMeasurement;
import dev.loomflux.lab.driver.StepMeasurement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A load of flows in the run's log, until results.json holds its flows and steps: a line per flow (its completed
 * and failed iterations, their rate and latency) and one per step (its rate, latency and failures by cause).
 */
final class FlowLines {
    private FlowLines() {
    }

    static List<String> of(List<FlowMeasurement> flows) {
        List<String> out = new ArrayList<>();
        for (FlowMeasurement f : flows) {
            out.add(String.format(Locale.ROOT, "flow %s: %d iterations completed (%.1f/s, p50 %s, p99 %s), %d failed", f.flow(), f.completed(),
                    f.throughput(), ms(f.latency().getTotalCount(), f.latency().getValueAtPercentile(50)),
                    ms(f.latency().getTotalCount(), f.latency().getValueAtPercentile(99)), f.failed()));
            for (StepMeasurement s : f.steps()) {
                out.add(String.format(Locale.ROOT, "  step %s (%s): %d responses (%.1f/s, p50 %s, p99 %s)%s", s.step(), s.request(), s.responses(),
                        s.throughput(), ms(s.latency().getTotalCount(), s.latency().getValueAtPercentile(50)),
                        ms(s.latency().getTotalCount(), s.latency().getValueAtPercentile(99)), failures(s)));
            }
        }
        return out;
    }

    private static String ms(long count, long nanos) {
        return count == 0 ? "-" : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    private static String failures(StepMeasurement s) {
        List<String> causes = new ArrayList<>();
        Errors e = s.errors();
        add(causes, e.connect(), "connect errors");
        add(causes, e.timeout(), "timeouts");
        add(causes, e.status4xx(), "4xx");
        add(causes, e.status5xx(), "5xx");
        add(causes, e.other(), "other errors");
        add(causes, s.unexpected(), "unexpected statuses");
        if (s.missing() > 0) {
            causes.add(s.missingCause() + " (" + s.missing() + ")");
        }
        return causes.isEmpty() ? "" : "; failed: " + String.join(", ", causes);
    }

    private static void add(List<String> causes, long n, String what) {
        if (n > 0) {
            causes.add(n + " " + what);
        }
    }
}
