package dev.loomflux.lab.sut;

import dev.loomflux.lab.LabException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

final class Ports {
    private Ports() {
    }

    static int free(String host) {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new LabException("no free port on " + host + ": " + e.getMessage(), e);
        }
    }

    /**
     * A target with its own fixed port: if another process holds it, the readiness check and the
     * load would reach that process instead, and measure it under the target's name.
     */
    static void requireFree(String host, int port, String target) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(host))) {
            s.setReuseAddress(true);
        } catch (IOException e) {
            throw new LabException(target + ": port " + port + " on " + host + " is taken by another process ("
                    + e.getMessage() + "); the lab would measure that process instead");
        }
    }
}
