package io.gpupipe.localstack.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What ConfigurationDocumentationTest reads as documented, on two pages written here. */
class DocumentedSettingsTest {
    private static final String CONFIGURATION = String.join("\n",
            "# Configuration",
            "",
            "Keys such as `gpupipe.shop.queue-urls.small` (`GPUPIPE_SHOP_QUEUE_URLS_SMALL`); groups `GPUPIPE_SHOP_*`.",
            "",
            "## SAM parameters",
            "",
            "| parameter | default |",
            "|---|---|",
            "| `Auth`, `JwtIssuer` | `IAM` |",
            "",
            "## CDK context keys",
            "",
            "| key | default |",
            "|---|---|",
            "| `<tier>Spot` (`smallSpot`) | `false` |",
            "",
            "## Shop",
            "",
            "`gpupipe.shop.*`, environment `GPUPIPE_SHOP_*`:",
            "",
            "| key | default |",
            "|---|---|",
            "| `bucket`, `retry.max-calls` | required |",
            "| `gpupipe.other.full-key` | 1 |",
            "| `GPUPIPE_TRACING_FILE` | none |",
            "",
            "## No group",
            "",
            "| key | default |",
            "|---|---|",
            "| `bucket` | none |",
            "");
    private static final String LOCAL_STACK = String.join("\n",
            "# Local stack",
            "",
            "## Flags",
            "",
            "| flag | meaning |",
            "|---|---|",
            "| `--api-port N` | port |",
            "| `--console`, `--no-console` | the console; `$XDG_CACHE_HOME` |",
            "");

    @Test
    void read_shouldClassifyEachTablesNamesBySectionAndForm(@TempDir Path root) throws IOException {
        Files.writeString(root.resolve("configuration.md"), CONFIGURATION);
        Files.writeString(root.resolve("local-stack.md"), LOCAL_STACK);

        DocumentedSettings documented = DocumentedSettings.read(
                MarkdownPage.read(root, root.resolve("configuration.md")),
                MarkdownPage.read(root, root.resolve("local-stack.md")));

        assertThat(documented.samParameters()).containsExactlyInAnyOrder("Auth", "JwtIssuer");
        assertThat(documented.cdkContextKeys()).containsExactlyInAnyOrder("<tier>Spot", "smallSpot");
        assertThat(documented.configKeys()).containsExactlyInAnyOrder("gpupipe.shop.bucket",
                "gpupipe.shop.retry.max-calls", "gpupipe.other.full-key", "gpupipe.shop.queue-urls.small");
        assertThat(documented.environmentVariables()).containsExactlyInAnyOrder("GPUPIPE_TRACING_FILE",
                "GPUPIPE_SHOP_QUEUE_URLS_SMALL");
        assertThat(documented.launcherFlags()).containsExactlyInAnyOrder("--api-port", "--console", "--no-console");
        assertThat(documented.unreadable()).singleElement().asString().startsWith("configuration.md:31: `bucket`");
        assertThat(documented.mentions("XDG_CACHE_HOME")).isTrue();
        assertThat(documented.mentions("XDG_CACHE")).isFalse();
    }
}
