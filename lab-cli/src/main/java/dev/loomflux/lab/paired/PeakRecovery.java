package dev.loomflux.lab.paired;

import dev.loomflux.lab.driver.Second;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.result.BlockRecord;
import dev.loomflux.lab.result.Result;
import java.util.List;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * How long a target took after a shape's peak to answer as it did before the load rose, from its per-second p99
 * (docs/statistics.md, "Recovery after the peak"). The peak ends where the load first falls from the shape's most users. The
 * target's own latency under light load is the median p99 of the seconds before the planned users first pass a quarter of
 * that peak (the plan's time, not the driver's count of users, which not every driver reports). It has recovered at the first
 * second after the peak from which every second with responses stays within twice that latency. Only stages have a peak; a
 * shape with no seconds under a quarter of its peak, or none with responses after it, is not judged.
 */
final class PeakRecovery {
    /** The share of the peak's users under which the target is taken as lightly loaded. */
    static final double LIGHT = 0.25;
    /** How far above its light-load p99 a second's p99 may lie and count as recovered. */
    static final double WITHIN = 2;

    private PeakRecovery() {
    }

    /** The block's recovery; null where not judged. */
    static BlockRecord.Recovery of(LoadProfile profile, List<Second> series) {
        if (!(profile instanceof LoadProfile.Stages s) || s.peakUsers() == 0) {
            return null;
        }
        int most = s.peakUsers();
        double light = -1;
        double peak = -1;
        double at = 0;
        int from = 0;
        for (LoadProfile.Stage stage : s.stages()) {
            double seconds = stage.duration().toMillis() / 1000.0;
            if (light < 0 && stage.users() > LIGHT * most) {
                // a linear ramp from the previous stage's users: when it passes a quarter of the peak
                light = at + (from >= LIGHT * most ? 0 : seconds * (LIGHT * most - from) / (stage.users() - from));
            }
            if (peak >= 0 && stage.users() < most) {
                break;
            }
            at += seconds;
            peak = stage.users() == most ? at : peak;
            from = stage.users();
        }
        double end = light;
        double start = peak;
        double[] before = series.stream().filter(x -> x.t() + 1 <= end && answered(x)).mapToDouble(Second::p99Ms).toArray();
        List<Second> after = series.stream().filter(x -> x.t() >= start && answered(x)).toList();
        if (before.length == 0 || after.isEmpty()) {
            return null;
        }
        double base = new Median().evaluate(before);
        Double recovered = null;
        for (int i = after.size() - 1; i >= 0 && after.get(i).p99Ms() <= WITHIN * base; i--) {
            recovered = Math.max(0, after.get(i).t() - peak);
        }
        return new BlockRecord.Recovery(Result.round(base), Result.round(peak), recovered == null ? null : Result.round(recovered));
    }

    private static boolean answered(Second s) {
        return s.responses() > 0 && Double.isFinite(s.p99Ms());
    }
}
