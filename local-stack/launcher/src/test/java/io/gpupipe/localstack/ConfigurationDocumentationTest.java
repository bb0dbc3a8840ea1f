package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localstack.docs.CodeSettings;
import io.gpupipe.localstack.docs.DocumentedSettings;
import io.gpupipe.localstack.docs.MarkdownPage;
import io.gpupipe.localstack.sam.SamTemplate;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Keeps docs/configuration.md and docs/local-stack.md the whole list of what can be set, both ways: every SAM
 * parameter (sam-template.yaml's {@code Parameters}), CDK context key (the app's {@code tryGetContext} calls),
 * {@code @ConfigMapping} key and environment variable the code reads, and launcher flag (picocli's options of
 * {@link LaunchFlags}) is documented there, and every one documented there exists. The lists come from the template
 * and the code themselves ({@link CodeSettings}); what the pages document is read from their tables
 * ({@link DocumentedSettings}). A tier's name in a documented key stands for any tier.
 */
class ConfigurationDocumentationTest {
    private static Set<String> samParameters;
    private static CodeSettings code;
    private static Set<String> flags;
    private static DocumentedSettings documented;
    private static List<String> tierNames;

    @BeforeAll
    static void readTheCodeAndThePages() throws IOException {
        Path repo = TestPaths.repo().toAbsolutePath().normalize();
        samParameters = new TreeSet<>(SamTemplate.parameterNames(Files.readString(repo.resolve("sam-template.yaml"))));
        code = CodeSettings.read(repo);
        flags = new TreeSet<>();
        for (OptionSpec option : new CommandLine(new LaunchFlags()).getCommandSpec().options()) {
            flags.add(option.longestName());
            if (option.negatable()) {
                flags.add(option.longestName().replaceFirst("^--", "--no-"));
            }
        }
        documented = DocumentedSettings.read(MarkdownPage.read(repo, repo.resolve("docs/configuration.md")),
                MarkdownPage.read(repo, repo.resolve("docs/local-stack.md")));
        tierNames = TierCatalogue.bundled().tiers().stream().map(TierDefinition::tier).map(t -> t.wireName())
                .toList();
    }

    @Test
    void theCodeAndTemplate_shouldBeReadAtAll() {
        // a reader that finds nothing would make every other test here pass; these are known to exist
        assertThat(samParameters).as("SAM parameters read from sam-template.yaml").contains("FunctionPackage", "Auth");
        assertThat(code.cdkContextKeys()).as("context keys read from cdk/").contains("samStackName",
                "<tier>ModelRevision");
        assertThat(code.configKeys()).as("@ConfigMapping keys read from the code").contains("gpupipe.router.bucket",
                "gpupipe.router.queue-urls.<key>", "gpupipe.scaling.tiers.<key>.queue-url",
                "gpupipe.metric-namespace");
        assertThat(code.environmentVariables()).as("environment variables the code reads").contains(
                "GPUPIPE_TEXT_MODEL");
        assertThat(flags).as("launcher flags").contains("--api-port", "--no-console");
        assertThat(documented.unreadable()).as("names in configuration.md's tables that are no key").isEmpty();
    }

    @Test
    void samParameters_shouldBeDocumentedAndExist() {
        assertThat(missing(samParameters, documented.samParameters()))
                .as("sam-template.yaml parameters missing from configuration.md's \"SAM parameters\"").isEmpty();
        assertThat(missing(documented.samParameters(), samParameters))
                .as("configuration.md's SAM parameters that sam-template.yaml does not have").isEmpty();
    }

    @Test
    void cdkContextKeys_shouldBeDocumentedAndExist() {
        Set<String> documentedKeys = documented.cdkContextKeys().stream().map(this::anyTierContextKey)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(missing(code.cdkContextKeys(), documentedKeys))
                .as("context keys the CDK app reads, missing from configuration.md's \"CDK context keys\"").isEmpty();
        assertThat(missing(documentedKeys, code.cdkContextKeys()))
                .as("configuration.md's context keys the CDK app never reads").isEmpty();
    }

    @Test
    void configurationKeys_shouldBeDocumented() {
        Set<String> keys = normalized(documented.configKeys());
        Set<String> variables = normalized(documented.environmentVariables());
        List<String> undocumented = code.configKeys().stream()
                .filter(k -> !keys.contains(anyTier(k)) && !variables.contains(anyTier(environmentName(k))))
                .toList();
        assertThat(undocumented).as("@ConfigMapping keys documented neither as a key nor as its environment "
                + "variable in configuration.md").isEmpty();
    }

    @Test
    void documentedConfigurationKeys_shouldExist() {
        Set<String> keys = normalized(code.configKeys());
        List<String> unknown = documented.configKeys().stream()
                .filter(k -> !keys.contains(anyTier(k)) && keys.stream().noneMatch(c -> c.startsWith(anyTier(k) + ".")))
                .toList();
        assertThat(unknown).as("keys configuration.md and local-stack.md document that no @ConfigMapping has")
                .isEmpty();
    }

    @Test
    void environmentVariablesTheCodeReads_shouldBeDocumented() {
        assertThat(code.environmentVariables().stream().filter(v -> !documented.mentions(v)).toList())
                .as("environment variables the code reads that neither configuration.md nor local-stack.md names")
                .isEmpty();
    }

    @Test
    void documentedEnvironmentVariables_shouldExist() {
        Set<String> known = normalized(code.environmentVariables());
        code.configKeys().forEach(k -> known.add(anyTier(environmentName(k))));
        assertThat(documented.environmentVariables().stream().filter(v -> !known.contains(anyTier(v))).toList())
                .as("GPUPIPE_ variables the two pages name that no component reads").isEmpty();
    }

    @Test
    void launcherFlags_shouldBeDocumentedAndExist() {
        assertThat(missing(flags, documented.launcherFlags()))
                .as("launcher flags missing from local-stack.md's \"Flags\" table").isEmpty();
        assertThat(missing(documented.launcherFlags(), flags))
                .as("flags in local-stack.md's \"Flags\" table that the launcher does not take").isEmpty();
    }

    private static Set<String> missing(Set<String> from, Set<String> in) {
        Set<String> missing = new TreeSet<>(from);
        missing.removeAll(in);
        return missing;
    }

    /** {@code gpupipe.router.queue-urls.<key>} → {@code GPUPIPE_ROUTER_QUEUE_URLS_<KEY>}. */
    private static String environmentName(String key) {
        return key.replace('.', '_').replace('-', '_').toUpperCase(java.util.Locale.ROOT);
    }

    private Set<String> normalized(Set<String> names) {
        return names.stream().map(this::anyTier).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Placeholders and tier names, in a key or variable, as one placeholder: any tier (or map key) may stand there. */
    private String anyTier(String name) {
        String result = name.replaceAll("<[^>]*>", "<*>");
        for (String tier : tierNames) {
            result = result.replaceAll("(?<=^|\\.)" + tier + "(?=\\.|$)", "<*>")
                    .replaceAll("(?<=_)" + tier.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "(?=_|$)",
                            "<*>");
        }
        return result;
    }

    /** {@code smallModelRevision} → {@code <tier>ModelRevision}. */
    private String anyTierContextKey(String key) {
        for (String tier : tierNames) {
            if (key.startsWith(tier) && key.length() > tier.length()
                    && Character.isUpperCase(key.charAt(tier.length()))) {
                return CodeSettings.TIER + key.substring(tier.length());
            }
        }
        return key;
    }
}
