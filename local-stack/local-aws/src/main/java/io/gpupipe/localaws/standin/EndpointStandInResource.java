package io.gpupipe.localaws.standin;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Quarkus test resource base: starts one stand-in and sets its endpoint into the config property named by the init
 * arg {@value #ENDPOINT_PROPERTY} (the module's endpoint override for its plain SDK client). Test fields of the
 * stand-in's type receive it.
 */
public abstract class EndpointStandInResource<T extends StandIn> implements QuarkusTestResourceLifecycleManager {
    /** Init arg: the config property that gets the stand-in's endpoint. */
    public static final String ENDPOINT_PROPERTY = "endpoint-property";

    private final Class<T> type;
    private String endpointProperty;
    private T standIn;

    protected EndpointStandInResource(Class<T> type) {
        this.type = type;
    }

    /** Starts the stand-in. */
    protected abstract T create() throws IOException;

    @Override
    public void init(Map<String, String> initArgs) {
        endpointProperty = initArgs.get(ENDPOINT_PROPERTY);
        if (endpointProperty == null || endpointProperty.isBlank()) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " needs the init arg " + ENDPOINT_PROPERTY
                    + " (@ResourceArg(name = \"" + ENDPOINT_PROPERTY + "\", value = \"<config property>\"))");
        }
    }

    @Override
    public Map<String, String> start() {
        try {
            standIn = create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of(endpointProperty, standIn.endpoint().toString());
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(standIn, new TestInjector.MatchesType(type));
    }

    @Override
    public void stop() {
        if (standIn != null) {
            standIn.close();
        }
    }
}
