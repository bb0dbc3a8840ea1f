package io.gpupipe.localaws;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.util.EnumSet;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.shaded.org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.gaul.shaded.org.eclipse.jetty.server.Server;

/**
 * Makes S3Proxy read every request body to its end before the response completes, as S3 does.
 *
 * <p>Why: S3Proxy 4.1.0 reads an {@code aws-chunked} PutObject body through
 * {@code ByteStreams.limit(x-amz-decoded-content-length)}, so it stops after the data and never reads the terminal
 * chunk (the zero-size chunk with its signature or trailing checksum). The AWS SDK writes that terminal chunk in a
 * write of its own; when S3Proxy answered before it arrived, Jetty found request content unconsumed, closed the
 * connection, and the client's last write failed with "Error writing request body to server" after the object had
 * been stored — so the SDK's retry met its own object (412). Measured in the router's Quarkus test JVM: 41 of 1,000
 * first PUT attempts; 0 of 1,200 with aws-chunked encoding switched off.
 */
final class WholeBodyReads implements Filter {

    /** Adds the filter to the S3Proxy's servlet context; call before {@link S3Proxy#start()}. */
    static void install(S3Proxy proxy) {
        addFilter(proxy, new WholeBodyReads());
    }

    /** Adds a servlet filter in front of S3Proxy's handler (filters run in the order they are added). */
    static void addFilter(S3Proxy proxy, Filter filter) {
        try {
            // S3Proxy does not expose its Jetty server; LocalAwsTest fails loudly if this field ever goes away.
            Field field = S3Proxy.class.getDeclaredField("server");
            field.setAccessible(true);
            ServletContextHandler context = ((Server) field.get(proxy)).getDescendant(ServletContextHandler.class);
            if (context == null) {
                throw new IllegalStateException("S3Proxy's Jetty server has no servlet context");
            }
            context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("cannot reach S3Proxy's Jetty server (S3Proxy upgraded?)", e);
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(request, response);
        HttpServletRequest http = (HttpServletRequest) request;
        // A client waiting for "100 Continue" never sends the body of a request refused without reading it.
        boolean bodyMayNeverCome = "100-continue".equalsIgnoreCase(http.getHeader("Expect"))
                && ((HttpServletResponse) response).getStatus() >= 300;
        if (!bodyMayNeverCome) {
            readToEnd(http);
        }
    }

    private static void readToEnd(HttpServletRequest request) {
        try {
            InputStream body = request.getInputStream();
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException | IllegalStateException e) {
            // the client went away, or the body was read as a Reader: nothing left to consume here
        }
    }
}
