package io.gpupipe.localstack.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.Console;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Local stand-in for SNS (no SNS runs on this machine): speaks the AWS Query protocol the SDK's SnsClient uses
 * ({@code POST /} form-encoded {@code Action=Publish&TopicArn=...&Message=...}, answering the
 * {@code PublishResponse} XML) for the stack's topics, and prints each message it receives, so the result
 * notifier's real handler runs unchanged and the developer sees what it would publish.
 */
public final class SnsStandIn implements AutoCloseable {
    public static final String SUCCESS_TOPIC = "arn:aws:sns:" + LocalAws.REGION + ":000000000000:gpupipe-success";
    public static final String ERROR_TOPIC = "arn:aws:sns:" + LocalAws.REGION + ":000000000000:gpupipe-error";
    private static final String XMLNS = "http://sns.amazonaws.com/doc/2010-03-31/";

    /** One message as SNS received it. */
    public record Published(String topicArn, String message, Map<String, String> attributes) {
    }

    private final HttpServer server;
    private final Set<String> topics = Set.of(SUCCESS_TOPIC, ERROR_TOPIC);
    private final List<Published> published = new CopyOnWriteArrayList<>();
    private final Console console;

    private SnsStandIn(HttpServer server, Console console) {
        this.server = server;
        this.console = console;
    }

    public static SnsStandIn start(Console console) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        SnsStandIn sns = new SnsStandIn(server, console);
        server.createContext("/", sns::handle);
        server.start();
        return sns;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public List<Published> published() {
        return List.copyOf(published);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> form = parseForm(new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8));
            if (!"POST".equals(exchange.getRequestMethod()) || !"Publish".equals(form.get("Action"))) {
                error(exchange, 400, "InvalidAction", "the local SNS stand-in supports only Publish");
                return;
            }
            String topic = form.get("TopicArn");
            if (!topics.contains(topic)) {
                error(exchange, 404, "NotFound", "Topic does not exist");
                return;
            }
            if (form.get("Message") == null) {
                error(exchange, 400, "InvalidParameter", "Message is required");
                return;
            }
            Map<String, String> attributes = new TreeMap<>();
            for (int i = 1; form.containsKey("MessageAttributes.entry." + i + ".Name"); i++) {
                String prefix = "MessageAttributes.entry." + i;
                attributes.put(form.get(prefix + ".Name"), form.get(prefix + ".Value.StringValue"));
            }
            published.add(new Published(topic, form.get("Message"), attributes));
            console.component("sns", topic.substring(topic.lastIndexOf(':') + 1) + " <- " + form.get("Message"));
            respond(exchange, 200, "<PublishResponse xmlns=\"" + XMLNS + "\"><PublishResult><MessageId>"
                    + UUID.randomUUID() + "</MessageId></PublishResult><ResponseMetadata><RequestId>"
                    + UUID.randomUUID() + "</RequestId></ResponseMetadata></PublishResponse>");
        }
    }

    private static Map<String, String> parseForm(String body) {
        Map<String, String> form = new TreeMap<>();
        for (String pair : body.split("&")) {
            if (!pair.isEmpty()) {
                int eq = pair.indexOf('=');
                form.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                        eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    private static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
        respond(exchange, status, "<ErrorResponse xmlns=\"" + XMLNS + "\"><Error><Type>Sender</Type><Code>" + code
                + "</Code><Message>" + message + "</Message></Error><RequestId>" + UUID.randomUUID()
                + "</RequestId></ErrorResponse>");
    }

    private static void respond(HttpExchange exchange, int status, String xml) throws IOException {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/xml");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
