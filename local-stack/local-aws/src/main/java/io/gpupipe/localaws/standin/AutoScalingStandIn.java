package io.gpupipe.localaws.standin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stand-in for EC2 Auto Scaling, speaking what SDK 2.57.8's AutoScalingClient speaks: the AWS Query protocol
 * ({@code POST /}, form-encoded {@code Action=...&Version=2011-01-01}, XML answers in the
 * {@code http://autoscaling.amazonaws.com/doc/2011-01-01/} namespace, SigV4 for "autoscaling"). It knows the groups
 * scripted with {@link #setGroup}: {@code DescribeAutoScalingGroups} answers those of the requested names that exist
 * (others are simply absent, as in AWS), {@code SetDesiredCapacity} changes one (ValidationError for a missing group)
 * and is recorded.
 */
public final class AutoScalingStandIn implements StandIn {
    static final String NAMESPACE = "http://autoscaling.amazonaws.com/doc/2011-01-01/";

    /** A SetDesiredCapacity call. */
    public record SetDesired(String group, int desired, boolean honorCooldown) {
    }

    private final HttpServer server;
    private final Map<String, Integer> groups = new ConcurrentHashMap<>();
    private final List<SetDesired> calls = new CopyOnWriteArrayList<>();

    public AutoScalingStandIn() throws IOException {
        server = StandInHttp.start(this::handle);
    }

    @Override
    public URI endpoint() {
        return StandInHttp.endpoint(server);
    }

    /** A group with this desired capacity. */
    public void setGroup(String name, int desired) {
        groups.put(name, desired);
    }

    public Integer desired(String name) {
        return groups.get(name);
    }

    /** SetDesiredCapacity calls received, in order. */
    public List<SetDesired> setDesiredCalls() {
        return List.copyOf(calls);
    }

    public void reset() {
        groups.clear();
        calls.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String contentType = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
            if (!"POST".equals(exchange.getRequestMethod())
                    || !contentType.startsWith("application/x-www-form-urlencoded")) {
                error(exchange, 400, "MalformedInput", "expected a form-encoded AWS Query POST");
                return;
            }
            if (!StandInHttp.signedFor(exchange, "autoscaling")) {
                error(exchange, 403, "IncompleteSignature", "request is not SigV4-signed for autoscaling");
                return;
            }
            Map<String, String> form = form(new String(StandInHttp.body(exchange), StandardCharsets.UTF_8));
            String action = form.getOrDefault("Action", "");
            if (!"2011-01-01".equals(form.get("Version"))) {
                error(exchange, 400, "InvalidAction", "expected Version=2011-01-01");
            } else if ("DescribeAutoScalingGroups".equals(action)) {
                describe(exchange, form);
            } else if ("SetDesiredCapacity".equals(action)) {
                setDesired(exchange, form);
            } else {
                error(exchange, 400, "InvalidAction", "unsupported action " + action);
            }
        }
    }

    private void describe(HttpExchange exchange, Map<String, String> form) throws IOException {
        StringBuilder members = new StringBuilder();
        for (int i = 1; form.containsKey("AutoScalingGroupNames.member." + i); i++) {
            String name = form.get("AutoScalingGroupNames.member." + i);
            Integer desired = groups.get(name);
            if (desired != null) {
                members.append("<member><AutoScalingGroupName>").append(xml(name))
                        .append("</AutoScalingGroupName><MinSize>0</MinSize><MaxSize>10</MaxSize><DesiredCapacity>")
                        .append(desired).append("</DesiredCapacity></member>");
            }
        }
        respond(exchange, "DescribeAutoScalingGroups", "<AutoScalingGroups>" + members + "</AutoScalingGroups>");
    }

    private void setDesired(HttpExchange exchange, Map<String, String> form) throws IOException {
        String name = form.getOrDefault("AutoScalingGroupName", "");
        if (!groups.containsKey(name)) {
            error(exchange, 400, "ValidationError", "AutoScalingGroup name not found - " + name);
            return;
        }
        int desired = Integer.parseInt(form.getOrDefault("DesiredCapacity", "0"));
        calls.add(new SetDesired(name, desired, Boolean.parseBoolean(form.getOrDefault("HonorCooldown", "false"))));
        groups.put(name, desired);
        respond(exchange, "SetDesiredCapacity", null);
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    private static void respond(HttpExchange exchange, String action, String result) throws IOException {
        String body = "<" + action + "Response xmlns=\"" + NAMESPACE + "\">"
                + (result == null ? "" : "<" + action + "Result>" + result + "</" + action + "Result>")
                + "<ResponseMetadata><RequestId>" + java.util.UUID.randomUUID() + "</RequestId></ResponseMetadata></"
                + action + "Response>";
        StandInHttp.respond(exchange, 200, "text/xml", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
        String body = "<ErrorResponse xmlns=\"" + NAMESPACE + "\"><Error><Type>Sender</Type><Code>" + code
                + "</Code><Message>" + xml(message) + "</Message></Error><RequestId>"
                + java.util.UUID.randomUUID() + "</RequestId></ErrorResponse>";
        StandInHttp.respond(exchange, status, "text/xml", body.getBytes(StandardCharsets.UTF_8));
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
