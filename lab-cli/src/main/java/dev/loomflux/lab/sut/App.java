package dev.loomflux.lab.sut;

import dev.loomflux.lab.Home;
import dev.loomflux.targets.HttpClientLibrary;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/** The built-in applications under test; every target runs one of them. */
public enum App {
    /** RestClient takes any of the three (targets/mvc MvcDownstreamConfig). */
    MVC("targets/mvc", "loomflux-mvc.jar", EnumSet.allOf(HttpClientLibrary.class)),
    WEBFLUX("targets/webflux", "loomflux-webflux.jar", EnumSet.of(HttpClientLibrary.REACTOR_NETTY));

    private final String module;
    private final String jar;
    private final Set<HttpClientLibrary> clients;

    App(String module, String jar, Set<HttpClientLibrary> clients) {
        this.module = module;
        this.jar = jar;
        this.clients = clients;
    }

    /** The downstream clients it can call with ({@value HttpClientLibrary#PROPERTY}). */
    public Set<HttpClientLibrary> clients() {
        return clients;
    }

    /** Its built jar, or a one-line error saying how to build it. */
    public Path jar(Home home) {
        return home.jar(module, jar);
    }
}
