package io.gpupipe.localaws.standin;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Test double for what the local S3 cannot do: answer {@code 409 ConditionalRequestConflict}. S3 answers it to a
 * conditional write ({@code If-None-Match} / {@code If-Match}) that arrives while another conditional write to the
 * same key is in progress ("If a concurrent operation occurs during the upload S3 returns a 409
 * ConditionalRequestConflict response. On a 409 failure you should retry the upload", S3 API reference, PutObject
 * and CopyObject, {@code If-None-Match}); the local S3 serializes writes per key, so it never does.
 *
 * <p>Installed on an S3 client as an {@link ExecutionInterceptor}: the first conditional PUT of a key given to
 * {@link #conflictOn} runs the other writer's write first (it completes and wins, as on S3), sends the request to a
 * key nobody reads (S3 applies nothing it answers 409), and turns the answer into S3's 409 with the
 * ConditionalRequestConflict error document. Every later
 * request goes through untouched, so a retry meets what the other writer left (412, or success when it wrote
 * nothing).
 */
public final class ConditionalConflictStandIn implements ExecutionInterceptor {
    private static final ExecutionAttribute<Boolean> CONFLICTED = new ExecutionAttribute<>("gpupipe.conflicted");
    private static final int CONFLICT = 409;
    private static final String SINK = "conditional-conflict-standin/";
    private static final String CONFLICT_XML = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>"
            + "<Code>ConditionalRequestConflict</Code><Message>A conflicting conditional operation is currently in "
            + "progress against this resource. Please try again.</Message><RequestId>standin</RequestId></Error>";

    private final ConcurrentHashMap<String, Runnable> otherWriters = new ConcurrentHashMap<>();
    private final Set<String> conflicted = ConcurrentHashMap.newKeySet();

    /** The next conditional write of {@code key} gets 409, after {@code otherWriter} (may do nothing) has run. */
    public void conflictOn(String key, Runnable otherWriter) {
        otherWriters.put(key, otherWriter);
    }

    /** The keys whose write was answered 409 so far. */
    public Set<String> conflictedKeys() {
        return Set.copyOf(conflicted);
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        SdkHttpRequest request = context.httpRequest();
        if (request.method() != SdkHttpMethod.PUT || !isConditional(request)) {
            return request;
        }
        String path = request.encodedPath();
        for (String key : otherWriters.keySet()) {
            if (path.endsWith("/" + key)) {
                Runnable otherWriter = otherWriters.remove(key);
                if (otherWriter != null) {
                    otherWriter.run();
                    conflicted.add(key);
                    attributes.putAttribute(CONFLICTED, true);
                    // S3 does not apply a write it answers 409: this one lands on a key nobody reads
                    return request.toBuilder().encodedPath(path.substring(0, path.length() - key.length())
                            + SINK + key).build();
                }
            }
        }
        return request;
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        if (!Boolean.TRUE.equals(attributes.getAttribute(CONFLICTED))) {
            return context.httpResponse();
        }
        return context.httpResponse().toBuilder().statusCode(CONFLICT).statusText("Conflict")
                .removeHeader("Content-Length")
                .putHeader("Content-Length", Integer.toString(CONFLICT_XML.getBytes(StandardCharsets.UTF_8).length))
                .build();
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        if (!Boolean.TRUE.equals(attributes.getAttribute(CONFLICTED))) {
            return context.responseBody();
        }
        // one answer per conflicted attempt: a retry by the SDK is a new attempt with the real answer
        attributes.putAttribute(CONFLICTED, false);
        return Optional.of(new ByteArrayInputStream(CONFLICT_XML.getBytes(StandardCharsets.UTF_8)));
    }

    private static boolean isConditional(SdkHttpRequest request) {
        return request.firstMatchingHeader("If-None-Match").isPresent()
                || request.firstMatchingHeader("If-Match").isPresent();
    }
}
