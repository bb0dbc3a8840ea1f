package io.gpupipe.localstack.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What ConfigurationDocumentationTest finds in the code, on sources written here in each form the code uses. */
class CodeSettingsTest {

    @Test
    void configKeys_shouldFollowGroupsMapsAndNames_andSkipDefaultsAndEnums() {
        JavaSource source = JavaSource.of(String.join("\n",
                "@ConfigMapping(prefix = \"gpupipe.shop\")",
                "public interface ShopConfig {",
                "    /** the queue, {with braces} in a comment */",
                "    Map<String, String> queueUrls();",
                "    @WithDefault(\"5s\")",
                "    Duration quotaContention();",
                "    Optional<Set<String>> allowedHosts();",
                "    @WithName(\"tls\")",
                "    boolean useTls();",
                "    Map<String, Tier> tiers();",
                "    Retry retry();",
                "    default int twice() { return 2 * 2; }",
                "    enum Mode { A, B }",
                "    interface Tier {",
                "        String queueUrl();",
                "        default String x(int y) { return \"}\"; }",
                "    }",
                "    interface Retry {",
                "        @WithDefault(\"4\")",
                "        int maxCalls();",
                "    }",
                "}"));

        assertThat(CodeSettings.configKeys(source)).containsExactlyInAnyOrder("gpupipe.shop.queue-urls.<key>",
                "gpupipe.shop.quota-contention", "gpupipe.shop.allowed-hosts", "gpupipe.shop.tls",
                "gpupipe.shop.tiers.<key>.queue-url", "gpupipe.shop.retry.max-calls");
    }

    @Test
    void configKeys_shouldIncludeAPropertyNamedInAnExpression() {
        JavaSource source = JavaSource.of(String.join("\n",
                "final class Namespace {",
                "    public static final String PROPERTY = \"gpupipe.metric-namespace\";",
                "    public static final String OTHER = \"gpupipe.unused\";",
                "    public static final String CONFIG_DEFAULT = \"${\" + PROPERTY + \":Gpupipe}\";",
                "}"));

        assertThat(CodeSettings.configKeys(source)).containsExactly("gpupipe.metric-namespace");
    }

    @Test
    void contextKeys_shouldResolveLiteralsTiersWrappersAndLocals() {
        JavaSource source = JavaSource.of(String.join("\n",
                "class App {",
                "    App(Construct scope, TierSpec spec) {",
                "        String stack = context(app, \"samStackName\").orElse(\"x\");",
                "        String name = spec.tier().wireName();",
                "        context(app, name + \"ModelRevision\");",
                "        boolean fast = flag(\"FastReadiness\");",
                "        String key = spec.tier().wireName() + \"Weights\";",
                "        context(app, key);",
                "        Object o = getNode().tryGetContext(\"idleToZeroMinutes\");",
                "        if (fast) { warm(spec.tier().wireName()); }",
                "    }",
                "    private static Optional<String> context(App app, String key) {",
                "        Object value = app.getNode().tryGetContext(key);",
                "        return Optional.ofNullable(value).map(Object::toString);",
                "    }",
                "    private boolean flag(String suffix) {",
                "        Object value = getNode().tryGetContext(tier.wireName() + suffix);",
                "        return value != null;",
                "    }",
                "    private void warm(String tier) {",
                "        getNode().tryGetContext(tier + \"WarmWindow\");",
                "    }",
                "}"));

        assertThat(CodeSettings.contextKeys(source)).containsExactlyInAnyOrder("samStackName", "<tier>ModelRevision",
                "<tier>FastReadiness", "<tier>Weights", "idleToZeroMinutes", "<tier>WarmWindow");
    }

    @Test
    void environmentVariables_shouldBeTheOnesReadNotWritten() {
        JavaSource source = JavaSource.of(String.join("\n",
                "class Env {",
                "    static final String METADATA_ENV = \"ECS_CONTAINER_METADATA_URI_V4\";",
                "    void read(Map<String, String> env, Map<String, String> environment) {",
                "        System.getenv(\"CDK_DEFAULT_REGION\");",
                "        env.get(\"XDG_CACHE_HOME\");",
                "        environment.get(METADATA_ENV);",
                "        fromEnv(env, \"GPUPIPE_TEXT_MODEL\", Path::of);",
                "        env.put(\"GPUPIPE_WRITTEN_ONLY\", \"x\");",
                "        // env.get(\"IN_A_COMMENT\")",
                "    }",
                "}"));

        assertThat(CodeSettings.environmentVariables(source)).containsExactlyInAnyOrder("CDK_DEFAULT_REGION",
                "XDG_CACHE_HOME", "ECS_CONTAINER_METADATA_URI_V4", "GPUPIPE_TEXT_MODEL");
    }

    @Test
    void read_shouldTakeContextKeysFromTheCdkAppOnly(@TempDir Path repo) throws IOException {
        String reads = "class X { void f() { getNode().tryGetContext(\"someKey\"); } }";
        write(repo.resolve("cdk/src/main/java/X.java"), reads);
        write(repo.resolve("other/src/main/java/X.java"), reads.replace("someKey", "otherKey"));
        write(repo.resolve("cdk/src/test/java/X.java"), reads.replace("someKey", "testKey"));

        assertThat(CodeSettings.read(repo).cdkContextKeys()).containsExactly("someKey");
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
