package io.gpupipe.localstack;

import io.gpupipe.localstack.apigateway.HttpApiFacade;
import io.gpupipe.localstack.apigateway.HttpApiRoute;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.api.ApiDescription;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The local stack's HTTP API: the facade in front of the router, with the local callers' JWKS and the API's
 * description.
 */
final class LocalApi {
    private LocalApi() {
    }

    /** The facade on {@code port}, with the JWKS at {@link LocalStack#JWKS_PATH} (also written to {@code runDir}). */
    static HttpApiFacade start(int port, LambdaFunction router, LocalCallers callers, Path runDir, Console console) {
        try {
            HttpApiFacade facade = HttpApiFacade.start(port, HttpApiRoute.ROUTER, router, console, callers);
            facade.mount(LocalStack.JWKS_PATH, exchange -> {
                try (exchange) {
                    byte[] jwks = callers.jwks().getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("content-type", "application/json");
                    exchange.sendResponseHeaders(200, jwks.length);
                    exchange.getResponseBody().write(jwks);
                }
            });
            callers.writeJwks(runDir.resolve("jwks.json"));
            facade.serve(ApiDescription.PATH, ApiDescription.MEDIA_TYPE, ApiDescription.bytes());
            return facade;
        } catch (IOException e) {
            throw new StartupException("port " + port + " for the HTTP API is already in use; stop the "
                    + "program using it or choose another port with --api-port " + (port + 1), e);
        }
    }

    /**
     * The router takes its callers from the facade's authorizers (a token's claims, or a SigV4 session's IAM
     * context): {@code any} (a request without either is refused) when the facade requires a token, {@code none}
     * (either when present, else the one anonymous caller) otherwise.
     */
    static Map<String, String> withAuth(Map<String, String> routerEnv, LocalCallers callers) {
        Map<String, String> env = new LinkedHashMap<>(routerEnv);
        env.put("GPUPIPE_ROUTER_AUTH", callers.required() ? "any" : "none");
        return env;
    }

    /** One request through the whole API path (facade, function, S3), so the first user request is warm. */
    static void warmUp(HttpApiFacade api, LocalCallers callers, Console console) {
        HttpClient client = HttpClient.newHttpClient();
        URI probe = URI.create("http://127.0.0.1:" + api.port() + "/v1/jobs/" + UUID.randomUUID());
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(probe).GET()
                    .header("Authorization", "Bearer " + callers.token(LocalCallers.CALLER_A))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 404) {
                console.info("router warm-up: GET of an unknown job answered " + response.statusCode() + " "
                        + response.body());
            }
        } catch (IOException e) {
            console.info("router warm-up failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted", e);
        }
    }
}
