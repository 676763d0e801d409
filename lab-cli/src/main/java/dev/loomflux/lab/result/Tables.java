package dev.loomflux.lab.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Renders rows (first row = header) as aligned console text or as a Markdown table. */
public final class Tables {
    private Tables() {
    }

    public static List<String> plain(List<String[]> rows) {
        return plain(rows, Set.of());
    }

    /** @param rightAligned column indexes to align right (numbers) */
    public static List<String> plain(List<String[]> rows, Set<Integer> rightAligned) {
        int[] w = widths(rows);
        List<String> out = new ArrayList<>();
        for (String[] row : rows) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                sb.append(String.format("%" + (rightAligned.contains(i) ? "" : "-") + w[i] + "s", row[i])).append("  ");
            }
            out.add(sb.toString().stripTrailing());
        }
        return out;
    }

    public static List<String> markdown(List<String[]> rows) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            out.add("| " + String.join(" | ", escape(rows.get(r))) + " |");
            if (r == 0) {
                out.add("|" + "---|".repeat(rows.get(0).length));
            }
        }
        return out;
    }

    private static String[] escape(String[] row) {
        String[] out = new String[row.length];
        for (int i = 0; i < row.length; i++) {
            out[i] = row[i].replace("|", "\\|").replace("\n", " ");
        }
        return out;
    }

    private static int[] widths(List<String[]> rows) {
        int[] w = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                w[i] = Math.max(w[i], row[i].length());
            }
        }
        return w;
    }
}
