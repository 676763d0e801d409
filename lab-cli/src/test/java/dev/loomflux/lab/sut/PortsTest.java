package dev.loomflux.lab.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.LabException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class PortsTest {
    @Test
    void aFixedPortHeldByAnotherProcessIsRefusedNamingTheTarget() throws Exception {
        int port;
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = other.getLocalPort();
            LabException e = assertThrows(LabException.class, () -> Ports.requireFree("127.0.0.1", other.getLocalPort(), "my-app"));
            assertEquals("my-app: port " + port + " on 127.0.0.1 is taken by another process", e.getMessage().substring(0, e.getMessage().indexOf(" (")));
        }
        Ports.requireFree("127.0.0.1", port, "my-app");
    }
}
