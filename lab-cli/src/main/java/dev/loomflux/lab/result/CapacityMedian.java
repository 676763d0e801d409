package dev.loomflux.lab.result;

/**
 * results.json "capacity_summary": the capacity of one target x scenario over several searches, each
 * in a fresh JVM ({@code ./lab capacity --repeat N}): their median, range and spread. One search is
 * one JVM, and fresh JVMs of one target can settle at different speeds (docs/reproducibility.md, "What
 * the differences are"), so one search is no more a capacity than one run is a throughput.
 *
 * @param spreadPct how far apart the searches landed, relative to their median: what a second run may differ by
 */
public record CapacityMedian(String target, String scenario, String slo, int n, double medianRps, double minRps, double maxRps, Double spreadPct,
                             boolean reachedMax) {

    /** "capacity mvc gateway-delay20: median 1500 rps of 3 searches (1000-1500, spread 33.3%) meets p99<50ms" */
    public String describe() {
        return "capacity " + target + " " + scenario + ": median " + Math.round(medianRps) + " rps of " + n + " searches (" + Math.round(minRps)
                + "-" + Math.round(maxRps) + (spreadPct == null ? "" : ", spread " + spreadPct + "%") + ") meets " + slo
                + (reachedMax ? " (a search reached the --max-rps limit; the real capacity may be higher)" : "");
    }
}
