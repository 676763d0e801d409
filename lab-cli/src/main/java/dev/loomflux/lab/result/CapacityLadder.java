package dev.loomflux.lab.result;

import java.util.List;
import java.util.Locale;

/**
 * results.json "capacity_ladder": one scenario's capacity at an SLO measured in paired rounds (docs/guide.md, "Capacity in
 * paired rounds"): the rungs of open-model rates measured, each target's highest rung held below its lowest missed, with a
 * 95% interval from a bootstrap over each rung's rounds, and every pair's capacity ratio with its outcome.
 *
 * @param rungs       the rungs measured, lowest first, each with every target's outcome there
 * @param driverLimit the lowest rung the driver could not offer to some target (its arrivals fell behind while the target's
 *                    requests in flight left slots free), or null: no capacity is read at or above it
 */
public record CapacityLadder(String scenario, String slo, int rounds, List<Rung> rungs, Integer driverLimit, List<Target> targets,
                             List<Ratio> pairs, String method) {
    public CapacityLadder {
        rungs = List.copyOf(rungs);
        targets = List.copyOf(targets);
        pairs = List.copyOf(pairs);
    }

    /** The rungs' rates, lowest first. */
    public List<Integer> rates() {
        return rungs.stream().map(Rung::rps).toList();
    }

    /** One rung: its open-model rate and how every target did there. */
    public record Rung(int rps, List<AtRung> targets) {
        public Rung {
            targets = List.copyOf(targets);
        }
    }

    /**
     * One target at one rung, over its rounds.
     *
     * @param outcome  {@link #HOLDS}, {@link #MISSES} or {@link #NOT_OFFERED} (the driver fell behind with slots free)
     * @param medianMs   the median over the rounds of the blocks' latency at the SLO's percentile; null when that median block
     *                   failed by errors or by falling behind, or was not offered
     * @param goodputRps the median block's responses without error per second: past the knee, what the target still serves
     * @param errorPct   the median block's errors in % of its requests
     */
    public record AtRung(String target, String outcome, Double medianMs, Double goodputRps, Double errorPct) {
        public static final String HOLDS = "holds";
        public static final String MISSES = "misses";
        public static final String NOT_OFFERED = "not offered";
    }

    /**
     * One target's capacity: it held {@code holdsRps} and missed at {@code failsRps}, so its capacity lies between them.
     *
     * @param holdsRps the highest rung held below the lowest missed, over all rounds; null when it missed the lowest rung
     * @param failsRps the lowest rung missed; null when it held every rung (its capacity is above the ladder)
     * @param lowRps   the interval's lower end: 2.5% of the bootstrap's rungs held; null when below the lowest rung
     * @param highRps  the interval's upper end: 97.5% of the bootstrap's rungs missed; null when above the ladder
     * @param overload past the knee: the rungs nearest 1.5x and 2x its capacity (within 20%), what it still served there
     */
    public record Target(String target, Integer holdsRps, Integer failsRps, Integer lowRps, Integer highRps, List<Overload> overload) {
        public Target {
            overload = overload == null ? List.of() : List.copyOf(overload);
        }

        /** "holds 2,400 rps, misses 2,600 (95% CI 2,200-2,800)" */
        public String describe() {
            return (holdsRps == null ? "misses the lowest rung" : "holds " + holdsRps + " rps") + (failsRps == null ? ", misses no rung" : ", misses " + failsRps)
                    + " (95% CI " + (lowRps == null ? "below the ladder" : lowRps) + "-" + (highRps == null ? "above the ladder" : highRps) + ")";
        }
    }

    /**
     * A target past its knee: at the rung nearest {@code times} its capacity (its highest rung held), the median block's
     * responses without error per second and errors.
     *
     * @param times 1.5 or 2
     */
    public record Overload(double times, int rps, Double goodputRps, Double errorPct) {
    }

    /**
     * Two targets' capacities, a over b.
     *
     * @param ratio   the ratio of the brackets' geometric middles; null when a bracket is open
     * @param ciHigh  null when unbounded (a target above the ladder or below it)
     * @param outcome {@link PairComparison#A}, {@link PairComparison#B}, {@link PairComparison#EQUIVALENT} or {@link PairComparison#UNDECIDED}
     */
    public record Ratio(String a, String b, Double ratio, double ciLow, Double ciHigh, String outcome) {
        /** "mvc/webflux capacity 1.52 (95% CI 1.33-1.71): mvc ahead" */
        public String describe() {
            String verdict = switch (outcome) {
                case PairComparison.A -> a + " holds more";
                case PairComparison.B -> b + " holds more";
                case PairComparison.EQUIVALENT -> "equivalent (within 5%)";
                default -> "undecided";
            };
            return String.format(Locale.ROOT, "%s/%s capacity %s (95%% CI %.3f-%s): %s", a, b, ratio == null ? "n/a" : String.format(Locale.ROOT, "%.3f", ratio),
                    ciLow, ciHigh == null ? "unbounded" : String.format(Locale.ROOT, "%.3f", ciHigh), verdict);
        }
    }
}
