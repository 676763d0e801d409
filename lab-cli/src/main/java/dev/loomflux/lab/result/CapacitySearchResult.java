package dev.loomflux.lab.result;

import java.util.List;

/** One capacity search of results.json "capacity": the highest rate that met the SLO, and every step it measured. */
public record CapacitySearchResult(String target, String scenario, int repeat, String slo, int capacityRps, boolean reachedMax, List<Step> steps) {
    /** One point of the latency-vs-rate curve. */
    public record Step(int step, int offeredRps, double throughputRps, Double p50, Double p99, Double p999, Long errors, Boolean behindSchedule,
                       boolean steady, boolean sloMet) {
        /** A capacity step's result as a point of the curve. */
        public static Step of(Result r) {
            Result.Latency l = r.load().latencyMs();
            return new Step(r.key().step(), r.slo().offeredRps(), r.load().throughputRps() == null ? 0 : r.load().throughputRps(), l == null ? null : l.p50(),
                    l == null ? null : l.p99(), l == null ? null : l.p999(), r.load().errors() == null ? null : r.load().errors().total(), r.load().behindSchedule(),
                    r.steady(), Boolean.TRUE.equals(r.slo().sloMet()));
        }
    }
}
