package dev.loomflux.lab.target;

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
}
