package dev.loomflux.lab.verdict;

import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.RoundsStop;
import dev.loomflux.lab.stats.AlphaSpending;
import dev.loomflux.lab.stats.Paired;
import dev.loomflux.lab.stats.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The sequential rule of one scenario's (or sweep cell's) rounds: a look at planned rounds, every comparison drawn at the
 * look's level ({@link AlphaSpending}: together the looks' intervals cover the truth 95% of the time, however the run stops),
 * and the rounds stop when every comparison has an outcome, when none still open can reach one by the cap, or when the
 * next look would end past the time budget (docs/statistics.md, "Stopping when the answer is known").
 */
public final class Stopping {
    /** The first look: fewer rounds give no interval at an early look's level, nor the thirds the drift check compares. */
    public static final int FIRST_LOOK = 10;
    /** Rounds between looks, at least: more looks cost the last look's level little, fewer delay the stop. */
    public static final int EVERY = 5;
    /** At most this many looks, so that a high cap spaces them wider. */
    static final int MAX_LOOKS = 12;
    /**
     * How far the estimate may yet move by the cap, in its standard errors, before a comparison counts as unable to reach
     * an outcome: 2, so that a lead the rest of the rounds would likely show is waited for.
     */
    static final double FUTILITY_Z = 2;

    public static final String DECIDED = "every comparison has an outcome";
    public static final String FUTILE = "no comparison still open can reach an outcome by the cap";
    public static final String CAP = "the cap of rounds (--rounds)";
    public static final String TIME = "the time budget (--time)";

    private final int cap;
    private final int every;
    private final List<String> targets;
    private final Timing timing;
    private final AlphaSpending spending;
    private final List<RoundsStop.Look> looks = new ArrayList<>();
    private volatile String why;

    /**
     * @param cap     the most rounds ({@code --rounds})
     * @param targets the targets compared, in the run's order
     * @param timing  how the driver times requests, as {@link Comparisons#of} takes it
     */
    public Stopping(int cap, List<String> targets, Timing timing) {
        this(cap, targets, timing, new AlphaSpending());
    }

    /** As above, with the looks' levels from {@code spending}: a simulation's many runs share what it has integrated. */
    Stopping(int cap, List<String> targets, Timing timing, AlphaSpending spending) {
        this.spending = spending;
        this.cap = cap;
        this.every = Math.max(EVERY, (int) Math.ceil((cap - FIRST_LOOK) / (double) (MAX_LOOKS - 1)));
        this.targets = List.copyOf(targets);
        this.timing = timing;
    }

    /** Whether the rounds are looked at after {@code round} measured rounds. */
    public boolean isLook(int round) {
        return round == cap || round >= FIRST_LOOK && round < cap && (round - FIRST_LOOK) % every == 0;
    }

    /** The planned looks from the first to the cap. */
    public List<Integer> planned() {
        List<Integer> out = new ArrayList<>();
        for (int r = 1; r <= cap; r++) {
            if (isLook(r)) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * A look after {@code round} measured rounds: the comparisons at its level, and why the rounds stop here, or null to go on.
     *
     * @param blocks        the measured blocks so far
     * @param secondsPerRound how long a round takes, for the time budget
     * @param secondsLeft   what is left of the time budget; infinite without one
     */
    public Seen look(int round, List<BlockRecord> blocks, double secondsPerRound, double secondsLeft) {
        double level = take(round);
        List<PairComparison> comparisons = Comparisons.of(blocks, targets, timing, levels(blocks, level));
        int open = 0;
        int reachable = 0;
        double last = round >= cap ? level : lastLevel(round);
        for (PairComparison c : comparisons) {
            if (c.outcome().equals(PairComparison.UNDECIDED)) {
                open++;
                if (reachable(c, round, level, last)) {
                    reachable++;
                }
            }
        }
        looks.add(new RoundsStop.Look(round, level, open));
        // The cap before futility: at the cap nothing is reachable any more (reachable says so), and the cap is why.
        // Without any comparison (one target) there is no answer to wait for but the rounds themselves: they go to the cap.
        why = open == 0 && !comparisons.isEmpty() ? DECIDED : round >= cap ? CAP : open > 0 && reachable == 0 ? FUTILE
                : secondsLeft < (nextLook(round) - round) * secondsPerRound ? TIME : null;
        return new Seen(comparisons, why);
    }

    /** What a look found: the comparisons at its level, and why the rounds stop, or null. */
    public record Seen(List<PairComparison> comparisons, String stop) {
    }

    /** Why the rounds stopped at a look; null until one said so. */
    public String why() {
        return why;
    }

    /** The looks taken so far. */
    public List<RoundsStop.Look> looks() {
        return List.copyOf(looks);
    }

    /**
     * The level of the comparisons over {@code rounds} measured rounds: the last look's, or where the rounds ended
     * between looks (a stopped run), a look taken there.
     */
    public double finalLevel(int rounds) {
        if (!looks.isEmpty() && looks.get(looks.size() - 1).round() == rounds) {
            return looks.get(looks.size() - 1).level();
        }
        if (rounds <= 0 || !looks.isEmpty() && looks.get(looks.size() - 1).round() > rounds) {
            return Stats.ALPHA;
        }
        double level = take(rounds);
        looks.add(new RoundsStop.Look(rounds, level, -1));
        return level;
    }

    private int nextLook(int round) {
        for (int r = round + 1; r <= cap; r++) {
            if (isLook(r)) {
                return r;
            }
        }
        return cap;
    }

    /** The level of a look at {@code round} after the looks taken. */
    private double take(int round) {
        return lastOf(List.of(round));
    }

    /** The level of the last of {@code more} looks (rounds, rising) after the looks taken. */
    private double lastOf(List<Integer> more) {
        double[] fractions = Stream.concat(looks.stream().map(RoundsStop.Look::round), more.stream())
                .mapToDouble(r -> Math.min(1, r / (double) cap)).toArray();
        double[] levels = spending.levels(Stats.ALPHA, fractions);
        return levels[levels.length - 1];
    }

    private static Map<String, Double> levels(List<BlockRecord> blocks, double level) {
        return blocks.isEmpty() ? Map.of() : Map.of(blocks.get(0).where(), level);
    }

    /**
     * Whether an undecided comparison could still reach an outcome by the cap: were the rounds' spread the same, the interval
     * at the last planned look's level narrows with the square root of the rounds, and the estimate may move by
     * {@link #FUTILITY_Z} of its standard errors of what the rest of the rounds add. Optimistic on purpose: the interval's
     * parts that rounds do not narrow (the JVMs' levels, counting) are scaled too, so a comparison is given up only where
     * even that could not decide it.
     */
    boolean reachable(PairComparison c, int round, double level, double lastLevel) {
        if (c.estimate().ratio() == null || c.estimate().ci().size() != 2 || !(c.estimate().ci().get(0) > 0) || round >= cap) {
            return false;
        }
        double estimate = Math.log(c.estimate().ratio());
        double half = Math.max(estimate - Math.log(c.estimate().ci().get(0)), Math.log(c.estimate().ci().get(1)) - estimate);
        if (!Double.isFinite(half) || c.estimate().rounds() < Paired.MIN_ROUNDS) {
            return true;
        }
        double z = AlphaSpending.z(level);
        double zLast = AlphaSpending.z(lastLevel);
        double n = c.estimate().rounds();
        double rest = Math.max(0, cap - round);
        double finalHalf = half * zLast / z * Math.sqrt(n / (n + rest));
        double move = FUTILITY_Z * half / z * Math.sqrt(rest / (n + rest));
        double margin = Math.log1p(Stats.MIN_EFFECT_PCT / 100);
        boolean win = estimate + move - finalHalf > margin || estimate - move + finalHalf < -margin;
        boolean same = Math.max(0, Math.abs(estimate) - move) + finalHalf < margin;
        return win || same;
    }

    /** The level the cap's look would have after the looks taken, this one at {@code round}, and the planned ones still to come. */
    private double lastLevel(int round) {
        List<Integer> more = new ArrayList<>(List.of(round));
        planned().stream().filter(r -> r > round).forEach(more::add);
        return lastOf(more);
    }

    /**
     * The comparisons of a run: each scenario's (cell's) at the level of the look its rounds stopped at, with the look from
     * which its outcome held, found by drawing every look's comparisons again from the blocks it saw. Where the rounds were
     * fixed (no stop recorded), at 5%.
     */
    public static List<PairComparison> reached(List<BlockRecord> blocks, List<String> targets, Timing timing, List<RoundsStop> stops) {
        Map<String, Double> levels = new java.util.HashMap<>();
        stops.forEach(st -> levels.put(st.where(), st.level()));
        List<PairComparison> last = Comparisons.of(blocks, targets, timing, levels);
        if (stops.isEmpty()) {
            return last;
        }
        // Per comparison, its outcome at each look, latest first.
        Map<String, List<String>> history = new java.util.HashMap<>();
        for (RoundsStop st : stops) {
            List<BlockRecord> own = blocks.stream().filter(b -> b.where().equals(st.where())).toList();
            for (int i = st.looks().size() - 1; i >= 0; i--) {
                RoundsStop.Look look = st.looks().get(i);
                List<BlockRecord> seen = own.stream().filter(b -> b.round() <= look.round()).toList();
                for (PairComparison c : Comparisons.of(seen, targets, timing, Map.of(st.where(), look.level()))) {
                    history.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(look.round() + " " + c.outcome());
                }
            }
        }
        List<PairComparison> out = new ArrayList<>();
        for (PairComparison c : last) {
            Double level = levels.get(BlockRecord.where(c.scenario(), c.cell()));
            if (level == null) {
                out.add(c);
                continue;
            }
            Integer from = null;
            if (!c.outcome().equals(PairComparison.UNDECIDED)) {
                for (String h : history.getOrDefault(c.key(), List.of())) {
                    String[] roundAndOutcome = h.split(" ", 2);
                    if (!roundAndOutcome[1].equals(c.outcome())) {
                        break;
                    }
                    from = Integer.parseInt(roundAndOutcome[0]);
                }
            }
            out.add(c.sequential(level, from));
        }
        return out;
    }
}
