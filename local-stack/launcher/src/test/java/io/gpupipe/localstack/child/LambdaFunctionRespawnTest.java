package io.gpupipe.localstack.child;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.ComponentPackages;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.JobJson;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A function whose execution environment died (its runtime process exited, e.g. the router's die-after-marker fault
 * hook) gets a new one on the next invocation, as Lambda does; the old one is not mistaken for a stop.
 */
class LambdaFunctionRespawnTest {
    @TempDir
    Path dir;

    @Test
    void invoke_shouldStartANewExecutionEnvironment_whenTheHostProcessDied() throws Exception {
        // given
        List<Path> classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(Path::of).toList();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        LambdaFunction function = LambdaFunction.start(new LambdaFunction.Spec("echo", 256, Duration.ofSeconds(5),
                Map.of(), EchoHandler.class.getName(), 1), classpath,
                ComponentPackages.extractChildClasses(dir.resolve("child")), dir,
                new Console(new PrintStream(output, true, StandardCharsets.UTF_8)));
        try {
            function.awaitReady(Duration.ofSeconds(30));
            long firstPid = function.process().pid();
            assertThat(function.invoke("{\"n\":1}".getBytes(StandardCharsets.UTF_8)).ok()).isTrue();

            // when: the runtime process dies between invocations
            ProcessHandle.of(firstPid).orElseThrow().destroyForcibly();
            function.process().onExit().get();
            LambdaFunction.Invocation next = function.invoke("{\"n\":2}".getBytes(StandardCharsets.UTF_8));

            // then
            assertThat(next.ok()).isTrue();
            JsonNode body = JobJson.mapper().readTree(next.payload());
            assertThat(body.path("event").path("n").asInt()).isEqualTo(2);
            assertThat(function.process().pid()).isNotEqualTo(firstPid);
            assertThat(output.toString(StandardCharsets.UTF_8))
                    .contains("echo execution environment exited with code");
        } finally {
            function.stop(Duration.ofSeconds(5));
        }
    }
}
