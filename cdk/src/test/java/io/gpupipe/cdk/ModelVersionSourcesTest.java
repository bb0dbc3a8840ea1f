package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The router keys result cache look-ups by the model version SAM gives it, and the worker keys entries by the one
 * CDK gives it; a difference would only ever cost misses, so nothing else would notice. deploy.yml builds SAM's
 * {@code <Tier>ModelVersion} from native-build/models/{tier}.env as {@code MODEL_REPO@MODEL_REVISION+IMAGE_TAG}, and
 * the CDK worker's is {@code ModelVersion.wireForm()} of Tiers.java's repository and image tag with the same commit:
 * equal exactly when those files agree, which this test holds them to.
 */
class ModelVersionSourcesTest {
    private static final String WORKFLOW_FORMULA = "\"$MODEL_REPO@$MODEL_REVISION+$IMAGE_TAG\"";

    @Test
    void samModelVersions_shouldEqualTheCdkWorkersVersion_forEveryCatalogueTier() throws IOException {
        String commit = "0123456789abcdef0123456789abcdef01234567";
        for (TierDefinition tier : TierCatalogue.bundled().tiers()) {
            // given
            String name = tier.tier().wireName();
            Properties env = env(name);
            // when: what deploy.yml hands SAM, and what the CDK app hands the worker
            String sam = env.getProperty("MODEL_REPO") + "@" + commit + "+" + env.getProperty("IMAGE_TAG");
            String cdk = Tiers.of(name).withModelRevision(commit).modelVersion().wireForm();
            // then
            assertThat(sam).as(name).isEqualTo(cdk);
        }
        assertThat(Files.readString(Path.of("..", ".github", "workflows", "deploy.yml")))
                .contains(WORKFLOW_FORMULA).contains("ModelVersion=$version").contains("$MODEL_VERSION_PARAMETERS");
    }

    private static Properties env(String tier) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of("..", "native-build", "models", tier + ".env"))) {
            properties.load(reader);
        }
        return properties;
    }
}
