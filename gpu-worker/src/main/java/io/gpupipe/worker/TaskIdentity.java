package io.gpupipe.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.jboss.logging.Logger;

/** The ECS task ARN recorded in results: from the task metadata endpoint (v4) when present, else configuration. */
public final class TaskIdentity {
    public static final String METADATA_ENV = "ECS_CONTAINER_METADATA_URI_V4";
    private static final Logger LOG = Logger.getLogger(TaskIdentity.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private TaskIdentity() {
    }

    public static String resolve(String configured, Map<String, String> environment) {
        String base = environment.get(METADATA_ENV);
        if (base == null || base.isBlank()) {
            return configured;
        }
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + "/task"))
                    .timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
            String arn = response.statusCode() == 200
                    ? JobJson.read(response.body(), JsonNode.class).path("TaskARN").asText("") : "";
            if (!arn.isEmpty()) {
                return arn;
            }
            LOG.warnf("task metadata at %s gave no TaskARN (HTTP %d); using %s", base, response.statusCode(),
                    configured);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warnf("task metadata at %s unreadable (%s); using %s", base, e.getMessage(), configured);
        }
        return configured;
    }
}
