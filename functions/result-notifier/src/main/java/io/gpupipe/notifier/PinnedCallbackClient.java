package io.gpupipe.notifier;

import io.gpupipe.model.notify.CallbackTargetPolicy;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP client of one callback delivery, pinned to the addresses its target check approved
 * ({@link CallbackTargetPolicy.Verdict.Allowed#addresses()}): the connection goes to one of those, while the request
 * keeps the URL's host for {@code Host}, TLS SNI and certificate checking. A name that resolves to a public address
 * for the check and to an internal one a moment later (DNS rebinding) therefore reaches only the address checked.
 * An allow-listed host was not checked by address and resolves as usual. Redirects and automatic retries are off;
 * {@link CallbackSender} retries by its own policy.
 */
final class PinnedCallbackClient {
    private PinnedCallbackClient() {
    }

    static CloseableHttpClient of(CallbackTargetPolicy.Verdict.Allowed target, Duration connectTimeout,
                                  Duration requestTimeout) {
        DnsResolver resolver = target.allowListed() ? SystemDefaultDnsResolver.INSTANCE
                : new CheckedAddresses(target.uri().getHost(), target.addresses());
        return HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(resolver)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.of(connectTimeout))
                                .setSocketTimeout(Timeout.of(requestTimeout)).build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.of(requestTimeout))
                        .build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .build();
    }

    /** Answers the checked host with the checked addresses, and no other host at all. */
    private record CheckedAddresses(String host, List<InetAddress> addresses) implements DnsResolver {
        @Override
        public InetAddress[] resolve(String name) throws UnknownHostException {
            if (!normalize(name).equals(normalize(host)) || addresses.isEmpty()) {
                throw new UnknownHostException(name + " is not the callback host that was checked (" + host + ")");
            }
            return addresses.toArray(InetAddress[]::new);
        }

        @Override
        public String resolveCanonicalHostname(String name) {
            return name;
        }

        private static String normalize(String name) {
            String h = name.toLowerCase(Locale.ROOT);
            if (h.startsWith("[") && h.endsWith("]")) {
                h = h.substring(1, h.length() - 1);
            }
            return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
        }
    }
}
