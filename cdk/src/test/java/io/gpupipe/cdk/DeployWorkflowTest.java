package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the deploy workflow must keep (docs/deploy.md); it cannot run here, so its text is checked: the
 * SAM and CDK stacks go to the same region (the GPU stacks import the SAM stack's exports, which exist only in its
 * region), every tier's model image is built by the pipeline and every tier's pinned commit reaches the CDK app, and
 * image pushes go through build.sh, which skips tags the immutable repositories already hold (build-push-test.sh).
 */
class DeployWorkflowTest {
    private static final String WORKFLOW = read(Path.of("..", ".github", "workflows", "deploy.yml"));

    @Test
    void samAndCdk_shouldDeployToTheOneRegionOfTheJob() {
        assertThat(env("AWS_REGION")).isNotBlank().isEqualTo(env("CDK_DEFAULT_REGION"));
        assertThat(WORKFLOW).contains("sam deploy ").contains("--region \"$AWS_REGION\"");
        assertThat(WORKFLOW).contains("aws-region: ${{ env.AWS_REGION }}");
    }

    @Test
    void cdkDeploys_shouldPassTheJobsRegion_andTheWorkerTagThroughTheSsmParameterTheGpuStackReads() {
        List<String> cdkDeploys = Pattern.compile("npx --yes aws-cdk@2 deploy [^\\n]*(\\n\\s+[^\\n]*)?")
                .matcher(WORKFLOW).results().map(m -> m.group()).toList();
        assertThat(cdkDeploys).hasSize(2).allSatisfy(deploy -> assertThat(deploy)
                .contains("-c region=\"$AWS_REGION\"").doesNotContain("workerImageTag"));
        int put = WORKFLOW.indexOf("aws ssm put-parameter --name \"" + WorkerStack.workerImageTagParameter("$STACK")
                + "\"");
        assertThat(put).as("the worker tag recorded where the GPU stack reads it").isPositive()
                .isGreaterThan(WORKFLOW.indexOf("native-build/build.sh --no-functions"))
                .isLessThan(WORKFLOW.indexOf("deploy \"$STACK-gpu\""));
    }

    @Test
    void everyTiersModelImage_shouldBeBuiltByThePipeline_withItsPinnedCommitPassedToCdk() {
        assertThat(WORKFLOW).contains("for env in native-build/models/*.env; do")
                .contains("-c ${tier}ModelRevision=").contains("--model $tier");
        List<String> cdkDeploys = Pattern.compile("npx --yes aws-cdk@2 deploy [^\\n]*(\\n\\s+[^\\n]*)?")
                .matcher(WORKFLOW).results().map(m -> m.group()).toList();
        assertThat(cdkDeploys).hasSize(2).allSatisfy(deploy -> assertThat(deploy).contains("$MODEL_REVISION_CONTEXT"));
        assertThat(WORKFLOW).contains("native-build/build.sh --no-functions --worker native $MODEL_BUILD_ARGS")
                .contains("--push \"${{ steps.ecr.outputs.registry }}\"");
        assertThat(WORKFLOW).doesNotContain("docker push").doesNotContain("podman push");
    }

    private static String env(String name) {
        Matcher m = Pattern.compile("\\n\\s+" + name + ": (.+)").matcher(WORKFLOW);
        return m.find() ? m.group(1).strip() : "";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
