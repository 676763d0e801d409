package dev.loomflux.lab.report;

import dev.loomflux.lab.cpuprofile.Profiler;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.CpuProfile;
import dev.loomflux.lab.result.Metric;
import dev.loomflux.lab.result.PairComparison;
import dev.loomflux.lab.result.Result;
import dev.loomflux.lab.verdict.CategoryDifferences;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where each target's CPU went, from its results' profiles (the JFR or async-profiler samples of its measured window put in categories): a
 * scenario's table of µs of CPU per request per category, and for each pair with a CPU-per-request winner the sentence that
 * says which categories hold the difference. The split is the samples' shares of each result's own CPU per request, with no
 * interval of its own: the comparison says who uses more, the samples only where it goes.
 */
final class CpuBreakdown {
    private static final String CAPTION = "Where the CPU goes (CPU samples in the measured window, µs of CPU per request)";

    private CpuBreakdown() {
    }

    /**
     * A row per result with a profile: each category's µs per request, or its share of the samples ("12%") where the result
     * has no CPU per request, then the samples and how many of them JFR truncated.
     */
    static Table table(List<Result> results, String column) {
        List<Result> profiled = results.stream().filter(r -> r.ok() && r.telemetry().profile() != null).toList();
        if (profiled.isEmpty()) {
            return new Table(CAPTION, List.of(), List.of());
        }
        List<String> labels = profiled.get(0).telemetry().profile().categories().stream().map(CpuProfile.CategoryShare::category).toList();
        List<String> columns = new ArrayList<>(labels);
        columns.addAll(List.of("samples", "truncated"));
        boolean shares = false;
        List<List<String>> rows = new ArrayList<>();
        for (Result r : profiled) {
            CpuProfile p = r.telemetry().profile();
            List<String> row = ScenarioTables.who(r, column);
            for (CpuProfile.CategoryShare c : p.categories()) {
                shares |= c.usPerRequest() == null;
                row.add(c.usPerRequest() == null ? Cells.num(c.share() * 100) + "%" : Cells.num(c.usPerRequest()));
            }
            row.addAll(List.of(Cells.num(p.samples()), Cells.num(p.truncated())));
            rows.add(row);
        }
        return new Table(CAPTION + (shares ? "; a share of the samples where a result has no CPU per request" : ""),
                ScenarioTables.header(column, columns.toArray(String[]::new)), rows);
    }

    /**
     * One line per pair whose comparison on CPU per request has a winner: by how much the other uses more, the two
     * categories where it uses the most µs per request more (the loser's minus the winner's), and the one where it uses the
     * most less, when that offsets a tenth of the difference or more. Nothing for a pair either of whose targets has no
     * µs per request: no profile, or no CPU figure to share out.
     */
    static List<Paragraph> splits(List<PairComparison> pairs, List<Result> ok, List<BlockRecord> blocks) {
        List<Paragraph> out = new ArrayList<>();
        for (PairComparison c : pairs) {
            boolean aWins = PairComparison.A.equals(c.outcome());
            if (c.metricKind() != Metric.CPU_PER_REQUEST || !aWins && !PairComparison.B.equals(c.outcome())) {
                continue;
            }
            String winner = aWins ? c.a() : c.b();
            String loser = aWins ? c.b() : c.a();
            Map<String, Double> winnerUs = usPerRequest(ok, winner);
            Map<String, Double> loserUs = usPerRequest(ok, loser);
            if (winnerUs != null && loserUs != null) {
                List<CategoryDifferences.Difference> over = CategoryDifferences.of(blocks, loser, winner);
                double more = (aWins ? 1 / c.estimate().ratio() : c.estimate().ratio()) - 1;
                String samples = ok.stream().filter(r -> r.target().equals(loser) && r.telemetry().profile() != null).findFirst()
                        .map(r -> Profiler.describe(r.telemetry().profile().profiler())).orElseThrow();
                out.add(Paragraph.detail(!over.isEmpty() && over.stream().allMatch(CategoryDifferences.Difference::known)
                        ? sentence(winner, loser, more, winnerUs, loserUs, over, samples) : sentence(winner, loser, more, winnerUs, loserUs, samples)));
            }
        }
        return out;
    }

    /**
     * @param more    how much more CPU per request the loser uses, as a fraction of the winner's (the comparison's ratio)
     * @param samples what took the samples: JFR, async-profiler
     */
    private static String sentence(String winner, String loser, double more, Map<String, Double> winnerUs, Map<String, Double> loserUs, String samples) {
        Map<String, Double> difference = new LinkedHashMap<>();
        loserUs.forEach((category, us) -> difference.put(category, us - winnerUs.getOrDefault(category, 0.0)));
        double total = difference.values().stream().mapToDouble(Double::doubleValue).sum();
        String uses = String.format(Locale.ROOT, "%s uses %.1f%% more CPU per request than %s", loser, more * 100, winner);
        if (total <= 0) {
            return uses + String.format(Locale.ROOT, ", yet its results' CPU per request is no higher (%.1f µs against %.1f µs): "
                    + "the samples cannot split the difference.", sum(loserUs), sum(winnerUs));
        }
        List<Map.Entry<String, Double>> most = difference.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())).limit(2).toList();
        // Where the loser uses less, when that is a tenth of the difference or more: then the categories where it uses more
        // add up to more than the difference, and the sentence says what offsets them.
        Map.Entry<String, Double> less = difference.entrySet().stream().filter(e -> e.getValue() <= -0.1 * total)
                .min(Map.Entry.comparingByValue()).orElse(null);
        return uses + String.format(Locale.ROOT, " (%.1f µs): %s", total, String.join(" and ", most.stream().map(CpuBreakdown::signed).toList()))
                + (less == null ? "" : ", against " + signed(less)) + " (" + samples + " samples, no interval yet).";
    }

    /**
     * The same from the rounds: each category's difference (the loser's minus the winner's, per round) with its interval,
     * the intervals holding together over the categories ({@link CategoryDifferences}). Named: the two where the loser uses
     * the most more, and the one where it uses the most less, each only when its whole interval lies beyond the margin.
     */
    private static String sentence(String winner, String loser, double more, Map<String, Double> winnerUs, Map<String, Double> loserUs,
                                   List<CategoryDifferences.Difference> over, String samples) {
        double total = sum(loserUs) - sum(winnerUs);
        String uses = String.format(Locale.ROOT, "%s uses %.1f%% more CPU per request than %s (%.1f µs)", loser, more * 100, winner, total);
        List<CategoryDifferences.Difference> most = over.stream().filter(d -> d.differs() && d.estimate() > 0)
                .sorted(Comparator.comparingDouble(CategoryDifferences.Difference::estimate).reversed()).limit(2).toList();
        CategoryDifferences.Difference less = over.stream().filter(d -> d.differs() && d.estimate() < 0)
                .min(Comparator.comparingDouble(CategoryDifferences.Difference::estimate)).orElse(null);
        CategoryDifferences.Difference any = over.get(0);
        String how = String.format(Locale.ROOT, "differences over %d rounds of the blocks' %s samples, 95%% intervals that hold together over the %d "
                + "categories with samples; named beyond %.1f µs, 5%% of the CPU per request", any.rounds(), samples, over.size(), any.margin());
        if (most.isEmpty() && less == null) {
            return uses + ": no category by itself (" + how + ").";
        }
        List<String> named = most.stream().map(CpuBreakdown::withInterval).toList();
        return uses + ": " + (named.isEmpty() ? "none more" : String.join(" and ", named)) + (less == null ? "" : ", against " + withInterval(less))
                + " (" + how + ").";
    }

    /** {@code vt-scheduling +6.1 µs (+5.2 to +7.0)}. */
    private static String withInterval(CategoryDifferences.Difference d) {
        return String.format(Locale.ROOT, "%s %s µs (%s to %s)", d.category(), number(d.estimate()), number(d.low()), number(d.high()));
    }

    /** {@code +6.1}, {@code −1.2}. */
    private static String number(double us) {
        return String.format(Locale.ROOT, "%s%.1f", us < 0 ? "−" : "+", Math.abs(us));
    }

    /** {@code reactor +11.6 µs}, {@code server-io −5.0 µs}. */
    private static String signed(Map.Entry<String, Double> e) {
        return e.getKey() + " " + number(e.getValue()) + " µs";
    }

    private static double sum(Map<String, Double> us) {
        return us.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /**
     * A target's µs per request per category: the mean over its results (its sets) whose profile has them; null when none
     * has.
     */
    private static Map<String, Double> usPerRequest(List<Result> ok, String target) {
        return usPerRequest(ok.stream().filter(r -> r.target().equals(target)).map(r -> r.telemetry().profile()).filter(p -> p != null).toList());
    }

    /** Each category's µs per request, the mean over the profiles that have them all; null when none has. */
    static Map<String, Double> usPerRequest(List<CpuProfile> all) {
        List<Map<String, Double>> each = all.stream().map(CpuProfile::usPerRequest).filter(us -> us != null).toList();
        if (each.isEmpty()) {
            return null;
        }
        Map<String, Double> mean = new LinkedHashMap<>();
        each.forEach(us -> us.forEach((category, v) -> mean.merge(category, v / each.size(), Double::sum)));
        return mean;
    }
}
