package dev.loomflux.lab.sut;

/** The built-in applications under test; every target runs one of them. */
public enum App {
    MVC("targets/mvc", "loomflux-mvc.jar"),
    WEBFLUX("targets/webflux", "loomflux-webflux.jar");

    private final String module;
    private final String jar;

    App(String module, String jar) {
        this.module = module;
        this.jar = jar;
    }

    public String module() {
        return module;
    }

    public String jar() {
        return jar;
    }
}
