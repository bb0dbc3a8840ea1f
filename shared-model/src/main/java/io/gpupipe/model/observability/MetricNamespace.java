package io.gpupipe.model.observability;

/**
 * The CloudWatch namespace every component publishes its metrics in: SAM's {@code MetricNamespace} parameter,
 * handed to each function and worker as one environment variable. Each module's config reads it through
 * {@link #CONFIG_DEFAULT} (its own {@code gpupipe.<module>.metric-namespace} key still overrides).
 */
public final class MetricNamespace {
    /** The environment variable SAM and CDK set. */
    public static final String ENV_VAR = "GPUPIPE_METRIC_NAMESPACE";
    /** The config property {@link #ENV_VAR} maps to (MicroProfile Config's environment variable rules). */
    public static final String PROPERTY = "gpupipe.metric-namespace";
    /** The namespace when nothing is configured (SAM's parameter default too). */
    public static final String DEFAULT = "Gpupipe";
    /** A config default expression: {@link #PROPERTY}, else {@link #DEFAULT}; for {@code @WithDefault}. */
    public static final String CONFIG_DEFAULT = "${" + PROPERTY + ":" + DEFAULT + "}";

    private MetricNamespace() {
    }
}
