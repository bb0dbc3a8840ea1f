package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localstack.apigateway.HttpApiFacade;
import io.gpupipe.localstack.apigateway.HttpApiRoute;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.api.ApiDescription;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The API description names exactly the routes the SAM template gives the router (and the local facade serves), and
 * the facade serves it at {@link ApiDescription#PATH}, as the local stack does.
 */
class ApiDescriptionRoutesTest {
    private static final Pattern SAM_ROUTE = Pattern.compile(
            "Type: HttpApi\\s+Properties:\\s+ApiId: !Ref InferenceApi\\s+Method: (\\w+)\\s+Path: (\\S+)");

    @Test
    void description_shouldDocumentExactlyTheRoutesOfTheTemplateAndTheFacade() throws Exception {
        // given
        Set<String> described = new TreeSet<>();
        Map<String, Map<String, Object>> paths = new Yaml().<Map<String, Map<String, Map<String, Object>>>>load(
                new String(ApiDescription.bytes(), StandardCharsets.UTF_8)).get("paths");
        paths.forEach((path, item) -> item.keySet().stream().filter(key -> !key.equals("parameters"))
                .forEach(method -> described.add(method.toUpperCase(Locale.ROOT) + " " + path)));
        Set<String> template = new TreeSet<>();
        SAM_ROUTE.matcher(Files.readString(TestPaths.repo().resolve("sam-template.yaml"))).results()
                .forEach(m -> template.add(m.group(1) + " " + m.group(2)));
        Set<String> facade = new TreeSet<>();
        HttpApiRoute.ROUTER.forEach(route -> facade.add(route.routeKey()));

        // then
        assertThat(template).hasSize(13); // the regex found every route, not none
        assertThat(described).isEqualTo(template).isEqualTo(facade);
    }

    @Test
    void facade_shouldServeTheDescription_atItsPathOnly() throws Exception {
        // given
        Console console = new Console(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        HttpClient client = HttpClient.newHttpClient();
        try (HttpApiFacade facade = HttpApiFacade.start(0, HttpApiRoute.ROUTER, event -> {
            throw new AssertionError("the description is served without the function");
        }, console)) {
            facade.serve(ApiDescription.PATH, ApiDescription.MEDIA_TYPE, ApiDescription.bytes());
            URI uri = URI.create("http://localhost:" + facade.port() + ApiDescription.PATH);

            // when
            HttpResponse<byte[]> get = client.send(HttpRequest.newBuilder(uri).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<byte[]> post = client.send(HttpRequest.newBuilder(uri).POST(
                    HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<byte[]> below = client.send(HttpRequest.newBuilder(URI.create(uri + "/x")).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());

            // then
            assertThat(get.statusCode()).isEqualTo(200);
            assertThat(get.headers().firstValue("content-type")).hasValue("application/yaml");
            assertThat(get.body()).isEqualTo(ApiDescription.bytes());
            assertThat(new String(get.body(), StandardCharsets.UTF_8)).startsWith("openapi: 3.1.0");
            assertThat(post.statusCode()).isEqualTo(404);
            assertThat(below.statusCode()).isEqualTo(404);
        }
    }
}
