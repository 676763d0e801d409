package dev.loomflux.lab.result;

import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/** One HdrHistogram interval log per target x scenario, readable by HdrHistogram's own tools. */
public final class Hlog {
    private Hlog() {
    }

    /** @param intervals per-second histograms in nanoseconds, start/end timestamps in epoch ms */
    public static void write(Path file, String comment, List<Histogram> intervals) {
        try (PrintStream out = new PrintStream(file.toFile(), "UTF-8")) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputComment(comment);
            w.outputComment("values in nanoseconds; HistogramLogProcessor -outputValueUnitRatio 1e6 prints ms");
            w.outputLogFormatVersion();
            if (!intervals.isEmpty()) {
                long base = intervals.get(0).getStartTimeStamp();
                w.setBaseTime(base);
                w.outputStartTime(base);
            }
            w.outputLegend();
            for (Histogram h : intervals) {
                w.outputIntervalHistogram(h);
            }
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
