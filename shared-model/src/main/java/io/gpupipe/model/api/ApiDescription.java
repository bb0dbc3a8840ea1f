package io.gpupipe.model.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The OpenAPI 3.1 description of the router's HTTP API, written by hand beside the code it describes (the JAX-RS
 * resources take raw bytes and answer prepared JSON, so nothing could be generated from them). The local stack serves
 * it at {@link #PATH}; the router's tests hold every request and answer they make to it.
 */
public final class ApiDescription {
    /** Where it is on the classpath. */
    public static final String RESOURCE = "/io/gpupipe/model/api/openapi.yaml";
    /** Where the local stack serves it, beside the API. */
    public static final String PATH = "/openapi.yaml";
    /** Its media type (RFC 9512). */
    public static final String MEDIA_TYPE = "application/yaml";

    private ApiDescription() {
    }

    /** The description's bytes (UTF-8 YAML). */
    public static byte[] bytes() {
        try (InputStream in = ApiDescription.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the API description " + RESOURCE + " is not on the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
