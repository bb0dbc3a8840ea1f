package io.gpupipe.localstack.apigateway;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One route of an API Gateway HTTP API ({@code METHOD /path/{param}}): its route key, and the path parameters of a
 * request it matches. A {@code {name}} segment matches exactly one non-empty path segment.
 */
public record HttpApiRoute(String method, String pathTemplate) {

    /** The routes of the router's HTTP API, as the SAM template declares them. */
    public static final List<HttpApiRoute> ROUTER = List.of(
            new HttpApiRoute("POST", "/v1/jobs"),
            new HttpApiRoute("POST", "/infer"),
            new HttpApiRoute("GET", "/v1/jobs/{id}"),
            new HttpApiRoute("DELETE", "/v1/jobs/{id}"),
            new HttpApiRoute("POST", "/v1/batches/uploads"),
            new HttpApiRoute("POST", "/v1/batches"),
            new HttpApiRoute("GET", "/v1/batches/{id}"),
            new HttpApiRoute("DELETE", "/v1/batches/{id}"),
            new HttpApiRoute("POST", "/v1/batches/{id}/cancel"),
            new HttpApiRoute("POST", "/v1/batches/{id}/retry"),
            new HttpApiRoute("GET", "/v1/batches/{id}/output"),
            new HttpApiRoute("GET", "/v1/batches/{id}/errors"),
            new HttpApiRoute("GET", "/v1/usage"));

    public String routeKey() {
        return method + " " + pathTemplate;
    }

    /** The path parameters (URL-decoded) when {@code method} and {@code rawPath} match this route. */
    public Optional<Map<String, String>> match(String requestMethod, String rawPath) {
        if (!method.equals(requestMethod)) {
            return Optional.empty();
        }
        String[] template = pathTemplate.split("/", -1);
        String[] actual = rawPath.split("/", -1);
        if (template.length != actual.length) {
            return Optional.empty();
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < template.length; i++) {
            String t = template[i];
            if (t.startsWith("{") && t.endsWith("}")) {
                if (actual[i].isEmpty()) {
                    return Optional.empty();
                }
                params.put(t.substring(1, t.length() - 1), URLDecoder.decode(actual[i], StandardCharsets.UTF_8));
            } else if (!t.equals(actual[i])) {
                return Optional.empty();
            }
        }
        return Optional.of(params);
    }

    /** The first route matching the request, with its path parameters. */
    public static Optional<Match> find(List<HttpApiRoute> routes, String method, String rawPath) {
        for (HttpApiRoute route : routes) {
            Optional<Map<String, String>> params = route.match(method, rawPath);
            if (params.isPresent()) {
                return Optional.of(new Match(route, params.get()));
            }
        }
        return Optional.empty();
    }

    /** A matched route and the request's path parameters. */
    public record Match(HttpApiRoute route, Map<String, String> pathParameters) {
    }
}
