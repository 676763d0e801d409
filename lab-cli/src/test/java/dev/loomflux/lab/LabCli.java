package dev.loomflux.lab;

import dev.loomflux.lab.main.Lab;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the lab CLI in-process, as ./lab would, capturing what it prints. */
record LabCli(int exitCode, String out, String err) {
    static LabCli of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lab.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new LabCli(code, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
    }
}
