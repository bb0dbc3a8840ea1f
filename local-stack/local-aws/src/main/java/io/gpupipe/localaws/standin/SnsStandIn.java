package io.gpupipe.localaws.standin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Stand-in for the SNS control plane (SNS cannot run here), speaking what SDK 2.57.8's SnsClient speaks: the AWS
 * Query protocol. It takes a SigV4-signed {@code POST /} with a form-encoded {@code Action=Publish&Version=
 * 2010-03-31&TopicArn=…&Message=…} body and answers the {@code PublishResponse} XML, or SNS's {@code ErrorResponse}
 * XML for an unknown topic, an unsigned request, a message or subject SNS refuses ({@link #invalidParameter}) or an
 * injected failure. It records each message (for assertions), can fail scripted requests (for retry tests) and tells
 * an optional listener (the local stack prints each message).
 */
public final class SnsStandIn implements StandIn {
    private static final String XMLNS = "http://sns.amazonaws.com/doc/2010-03-31/";
    static final int MAX_MESSAGE_BYTES = 262_144;

    /** One Publish call as SNS received it. */
    public record Published(String topicArn, String subject, String message, Map<String, String> attributes,
                            String messageId) {
    }

    private final HttpServer server;
    private final Set<String> topics;
    private final List<Published> published = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresToInject = new AtomicInteger();
    private volatile String failMessagesContaining;
    private volatile Consumer<Published> listener = p -> { };

    /** Starts the stand-in on a free loopback port, knowing these topics. */
    public SnsStandIn(Set<String> topicArns) throws IOException {
        this.topics = Set.copyOf(topicArns);
        this.server = StandInHttp.start(this::handle);
    }

    @Override
    public URI endpoint() {
        return StandInHttp.endpoint(server);
    }

    /** Every message accepted so far, in order. */
    public List<Published> published() {
        return List.copyOf(published);
    }

    /** Called with each accepted message, after it is recorded. */
    public void onPublish(Consumer<Published> listener) {
        this.listener = listener;
    }

    /** Forgets the recorded messages and the scripted failures. */
    public void reset() {
        published.clear();
        failuresToInject.set(0);
        failMessagesContaining = null;
    }

    /** The next {@code count} requests get HTTP 500 InternalError (the SDK retries those). */
    public void failNext(int count) {
        failuresToInject.set(count);
    }

    /** Every Publish whose Message contains {@code text} gets HTTP 500 InternalError, however often retried. */
    public void failMessagesContaining(String text) {
        failMessagesContaining = text;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String contentType = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
            if (!"POST".equals(exchange.getRequestMethod()) || !"/".equals(exchange.getRequestURI().getPath())
                    || !contentType.startsWith("application/x-www-form-urlencoded")) {
                error(exchange, 400, "Sender", "InvalidAction", "expected a form-encoded POST /");
                return;
            }
            if (!StandInHttp.signedFor(exchange, "sns")) {
                error(exchange, 403, "Sender", "InvalidClientTokenId", "request is not SigV4-signed for sns");
                return;
            }
            Map<String, String> form = parseForm(new String(StandInHttp.body(exchange), StandardCharsets.UTF_8));
            if (!"Publish".equals(form.get("Action")) || !"2010-03-31".equals(form.get("Version"))) {
                error(exchange, 400, "Sender", "InvalidAction", "unsupported action " + form.get("Action"));
                return;
            }
            String failText = failMessagesContaining;
            boolean failThis = failText != null && String.valueOf(form.get("Message")).contains(failText);
            if (failThis || failuresToInject.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                error(exchange, 500, "Receiver", "InternalError", "injected failure");
                return;
            }
            String topicArn = form.get("TopicArn");
            if (!topics.contains(topicArn)) {
                error(exchange, 404, "Sender", "NotFound", "Topic does not exist");
                return;
            }
            String invalid = invalidParameter(form.get("Message"), form.get("Subject"));
            if (invalid != null) {
                error(exchange, 400, "Sender", "InvalidParameter", "Invalid parameter: " + invalid);
                return;
            }
            String messageId = UUID.randomUUID().toString();
            Published message = new Published(topicArn, form.get("Subject"), form.get("Message"), attributes(form),
                    messageId);
            published.add(message);
            listener.accept(message);
            respond(exchange, 200, "<PublishResponse xmlns=\"" + XMLNS + "\">"
                    + "<PublishResult><MessageId>" + messageId + "</MessageId></PublishResult>"
                    + "<ResponseMetadata><RequestId>" + UUID.randomUUID() + "</RequestId></ResponseMetadata>"
                    + "</PublishResponse>");
        }
    }

    /**
     * What SNS refuses in a Publish (SNS API Reference, PublishRequest): no or an empty Message; a Message over
     * "256 KB in size (262,144 bytes, not 262,144 characters)"; a Subject that is not "UTF-8 text with no line breaks
     * or control characters, and less than 100 characters long". Null when the request passes.
     */
    static String invalidParameter(String message, String subject) {
        if (message == null || message.isEmpty()) {
            return "Empty message";
        }
        if (message.getBytes(StandardCharsets.UTF_8).length > MAX_MESSAGE_BYTES) {
            return "Message too long";
        }
        if (subject != null && (subject.isEmpty() || subject.length() >= 100
                || subject.chars().anyMatch(Character::isISOControl))) {
            return "Subject";
        }
        return null;
    }

    private static Map<String, String> attributes(Map<String, String> form) {
        Map<String, String> attributes = new TreeMap<>();
        for (int i = 1; form.containsKey("MessageAttributes.entry." + i + ".Name"); i++) {
            String prefix = "MessageAttributes.entry." + i;
            attributes.put(form.get(prefix + ".Name"), form.get(prefix + ".Value.StringValue"));
        }
        return attributes;
    }

    private static Map<String, String> parseForm(String body) {
        Map<String, String> form = new TreeMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            form.put(name, value);
        }
        return form;
    }

    private static void error(HttpExchange exchange, int status, String type, String code, String message)
            throws IOException {
        respond(exchange, status, "<ErrorResponse xmlns=\"" + XMLNS + "\"><Error>"
                + "<Type>" + type + "</Type><Code>" + code + "</Code><Message>" + message + "</Message></Error>"
                + "<RequestId>" + UUID.randomUUID() + "</RequestId></ErrorResponse>");
    }

    private static void respond(HttpExchange exchange, int status, String xml) throws IOException {
        StandInHttp.respond(exchange, status, "text/xml", xml.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
