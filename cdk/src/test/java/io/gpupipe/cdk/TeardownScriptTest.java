package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cdk/teardown.sh against a stand-in for the AWS CLI (a test double: no AWS account here) that records every call
 * and answers the read calls the way CloudFormation, S3, ECR, Logs and SSM answer them for one deployment. It checks
 * the script's arguments, its confirmation, its dry run, and the order and completeness of what it deletes.
 */
class TeardownScriptTest {
    private static final Path SCRIPT = Path.of("teardown.sh").toAbsolutePath();

    /** The fake `aws`: records "$*" per call; the results bucket holds one version until delete-objects is called. */
    private static final String FAKE_AWS = """
            #!/usr/bin/env bash
            echo "$*" >> "$FAKE_AWS_LOG"
            args=" $* "
            ecr="123456789012.dkr.ecr.us-east-1.amazonaws.com"
            case "$args" in
              *" describe-stacks "*"--query "*ResultsBucketName*) echo "gpupipe-resultsbucket-1a2b3c" ;;
              *" describe-stacks "*"--query "*ClusterName*) echo "gpupipe" ;;
              *" describe-stacks "*"--query "*WorkerRepositoryUri*) echo "$ecr/gpupipe-registry-worker" ;;
              *" describe-stacks "*"--query "*ModelServerRepositoryUri*) echo "$ecr/gpupipe-registry-model" ;;
              *" describe-stacks "*) case " $FAKE_STACKS " in *" ${6} "*) echo '{}' ;; *) exit 254 ;; esac ;;
              *" list-stack-resources "*) printf 'gpupipe-gpu-SmallTierLogs\\tgpupipe-gpu-LargeTierLogs\\n' ;;
              *" list-object-versions "*)
                if [[ -f "$FAKE_AWS_LOG.emptied" || "$args" == *DeleteMarkers* ]]; then
                  echo '{"Objects": null, "Quiet": true}'
                else
                  echo '{"Objects": [{"Key": "results/a.json", "VersionId": "v1"}], "Quiet": true}'
                fi ;;
              *" delete-objects "*) touch "$FAKE_AWS_LOG.emptied"; echo '{}' ;;
              *" describe-log-groups "*) echo "${6}" ;;
              *" ssm get-parameter "*) echo '{}' ;;
              *) ;;
            esac
            """;

    @TempDir
    Path dir;
    private Path calls;

    @BeforeEach
    void fakeAws() throws IOException {
        Path aws = dir.resolve("aws");
        Files.writeString(aws, FAKE_AWS);
        Files.setPosixFilePermissions(aws, PosixFilePermissions.fromString("rwxr-xr-x"));
        calls = dir.resolve("calls.log");
    }

    @Test
    void script_shouldBeValidBash() throws Exception {
        Run run = run(List.of("bash", "-n", SCRIPT.toString()), "");
        assertThat(run.exit).as(run.output).isZero();
    }

    @Test
    void unknownArgument_shouldExit2_beforeAnyAwsCall() throws Exception {
        Run run = teardown("", "--force");

        assertThat(run.exit).isEqualTo(2);
        assertThat(run.output).contains("unknown argument '--force'");
        assertThat(calls()).isEmpty();
    }

    @Test
    void withoutConfirmation_shouldListWhatItWouldDelete_andDeleteNothing() throws Exception {
        Run run = teardown("gpupipe-typo\n");

        assertThat(run.exit).isEqualTo(1);
        assertThat(run.output).contains("gpupipe-resultsbucket-1a2b3c").contains("gpupipe-registry-model")
                .contains("gpupipe-gpu-SmallTierLogs").contains("/aws/ecs/containerinsights/gpupipe/performance")
                .contains("not confirmed, nothing deleted");
        assertThat(calls()).isNotEmpty().noneMatch(TeardownScriptTest::changes);
    }

    @Test
    void dryRun_shouldPrintEveryChange_andRunNone() throws Exception {
        Run run = teardown("", "--dry-run");

        assertThat(run.exit).as(run.output).isZero();
        assertThat(calls()).noneMatch(TeardownScriptTest::changes);
        assertThat(run.output)
                .contains("dry-run: aws --region us-east-1 cloudformation delete-stack --stack-name gpupipe-monitoring")
                .contains("dry-run: aws --region us-east-1 s3api delete-bucket --bucket gpupipe-resultsbucket-1a2b3c")
                .contains("dry-run: aws --region us-east-1 ecr delete-repository --repository-name "
                        + "gpupipe-registry-worker --force")
                .contains("(dry run: nothing changed)");
    }

    @Test
    void confirmed_shouldDeleteTheStacksGpuSideFirst_thenEverythingTheyRetained() throws Exception {
        // when the stack name is typed as asked
        Run run = teardown("gpupipe\n");

        // then
        assertThat(run.exit).as(run.output).isZero();
        List<String> changes = calls().stream().filter(TeardownScriptTest::changes).toList();
        assertThat(changes).containsSubsequence(
                "--region us-east-1 cloudformation delete-stack --stack-name gpupipe-monitoring",
                "--region us-east-1 cloudformation delete-stack --stack-name gpupipe-gpu",
                "--region us-east-1 cloudformation delete-stack --stack-name gpupipe-registry",
                "--region us-east-1 cloudformation delete-stack --stack-name gpupipe-network",
                "--region us-east-1 cloudformation delete-stack --stack-name gpupipe");
        assertThat(changes).anyMatch(c -> c.contains("s3api delete-objects --bucket gpupipe-resultsbucket-1a2b3c")
                && c.contains("\"VersionId\": \"v1\""));
        assertThat(changes).containsSubsequence(
                "--region us-east-1 s3api delete-bucket --bucket gpupipe-resultsbucket-1a2b3c",
                "--region us-east-1 ecr delete-repository --repository-name gpupipe-registry-worker --force",
                "--region us-east-1 ecr delete-repository --repository-name gpupipe-registry-model --force",
                "--region us-east-1 logs delete-log-group --log-group-name gpupipe-gpu-SmallTierLogs",
                "--region us-east-1 logs delete-log-group --log-group-name gpupipe-gpu-LargeTierLogs",
                "--region us-east-1 logs delete-log-group --log-group-name "
                        + "/aws/ecs/containerinsights/gpupipe/performance",
                "--region us-east-1 ssm delete-parameter --name /gpupipe/gpupipe/worker-image-tag");
        assertThat(calls()).as("every delete-stack is waited for").filteredOn(c -> c.contains("wait stack-delete"))
                .hasSize(5);
    }

    @Test
    void configEnvAndFlags_shouldPickTheStackAndRegion_withYesSkippingTheQuestion() throws Exception {
        // when: samconfig.toml's prod environment, without a terminal to answer on
        Run prod = teardown("", "--config-env", "prod", "--yes");
        List<String> prodCalls = calls();
        Files.delete(calls);
        Run explicit = teardown("", "--stack", "other", "--region", "eu-west-1", "--yes");

        // then
        assertThat(prod.exit).as(prod.output).isZero();
        assertThat(prod.output).contains("gpupipe teardown of 'gpupipe-prod' in us-east-1");
        assertThat(prodCalls).contains("--region us-east-1 cloudformation delete-stack --stack-name gpupipe-prod");
        assertThat(explicit.exit).as(explicit.output).isZero();
        assertThat(calls()).contains("--region eu-west-1 cloudformation delete-stack --stack-name other-gpu");
    }

    private static boolean changes(String call) {
        return call.matches(".* (delete-[a-z-]+|put-[a-z-]+) .*") || call.contains(" wait ");
    }

    private Run teardown(String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        return run(command, stdin);
    }

    private Run run(List<String> command, String stdin) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PATH", dir + ":" + System.getenv("PATH"));
        builder.environment().put("FAKE_AWS_LOG", calls.toString());
        builder.environment().put("FAKE_STACKS", "gpupipe gpupipe-network gpupipe-registry gpupipe-gpu "
                + "gpupipe-monitoring gpupipe-prod gpupipe-prod-gpu other other-gpu");
        Process process = builder.start();
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("teardown.sh finished").isTrue();
        return new Run(process.exitValue(), output);
    }

    private List<String> calls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }

    private record Run(int exit, String output) {
    }
}
