package dev.loomflux.lab.measure;

/** Where a measurement reports: lines that stay, and a status line for each second of load. */
public interface Log {
    void line(String text);

    void status(String text);
}
