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
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lambda host as a real child process running a plain handler: invoke API, errors, context, lifecycle. */
class LambdaHostTest {
    @TempDir
    static Path dir;

    private static final ByteArrayOutputStream OUTPUT = new ByteArrayOutputStream();
    private static LambdaFunction function;

    @BeforeAll
    static void start() {
        List<Path> classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(Path::of).toList();
        Path childClasses = ComponentPackages.extractChildClasses(dir.resolve("child"));
        function = LambdaFunction.start(new LambdaFunction.Spec("echo", 256, Duration.ofSeconds(5),
                Map.of("EXTRA", "1"), EchoHandler.class.getName(), 1), classpath, childClasses, dir,
                new Console(new PrintStream(OUTPUT, true, StandardCharsets.UTF_8)));
        function.awaitReady(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() {
        function.stop(Duration.ofSeconds(5));
    }

    @Test
    void invoke_shouldReturnTheHandlersOutput_whenEventIsPostedToTheInvokeApi() throws Exception {
        // when: the RIE's invoke API, as curl would call it
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(function.invokeUri())
                .POST(HttpRequest.BodyPublishers.ofString("{\"n\":1}")).build(), HttpResponse.BodyHandlers.ofString());
        // then
        assertThat(function.invokeUri().getPath()).isEqualTo("/2015-03-31/functions/function/invocations");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = JobJson.mapper().readTree(response.body());
        assertThat(body.path("event").path("n").asInt()).isEqualTo(1);
        assertThat(body.path("function").asText()).isEqualTo("echo");
        assertThat(body.path("memory").asInt()).isEqualTo(256);
        assertThat(body.path("remainingPositive").asBoolean()).isTrue();
        assertThat(body.path("arn").asText()).isEqualTo("arn:aws:lambda:us-east-1:000000000000:function:echo");
        assertThat(body.path("inits").asInt()).as("the handler is constructed once (init phase)").isEqualTo(1);
        assertThat(response.headers().firstValue("X-Amz-Function-Error")).isEmpty();
    }

    @Test
    void invoke_shouldReportAnUnhandledError_whenTheHandlerThrows() throws Exception {
        // when
        LambdaFunction.Invocation result = function.invoke("{\"fail\":true}".getBytes(StandardCharsets.UTF_8));
        // then
        assertThat(result.ok()).isFalse();
        JsonNode error = JobJson.mapper().readTree(result.payload());
        assertThat(error.path("errorMessage").asText()).isEqualTo("asked to fail");
        assertThat(error.path("errorType").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(error.path("stackTrace").isArray()).isTrue();
    }

    @Test
    void invoke_shouldStillWork_afterAnError() throws Exception {
        // given
        function.invoke("{\"fail\":true}".getBytes(StandardCharsets.UTF_8));
        // when
        LambdaFunction.Invocation result = function.invoke("{\"n\":2}".getBytes(StandardCharsets.UTF_8));
        // then
        assertThat(result.ok()).isTrue();
        assertThat(JobJson.mapper().readTree(result.payload()).path("inits").asInt()).isEqualTo(1);
    }

    @Test
    void host_shouldIgnoreSigintAndExitWhenStdinCloses_whenRunAsAChild() throws Exception {
        // given: a second host, whose stdin the test controls
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LambdaHost.class.getName(), "--name", "orphan", "--handler",
                EchoHandler.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] firstLine = child.getInputStream().readNBytes(LambdaHost.READY_MARKER.length());
        assertThat(new String(firstLine, StandardCharsets.US_ASCII)).isEqualTo(LambdaHost.READY_MARKER);
        // when: Ctrl-C reaches it (it must wait for the launcher's orderly stop)
        new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start().waitFor();
        // then
        assertThat(child.waitFor(1, TimeUnit.SECONDS)).as("SIGINT is ignored").isFalse();
        // when: the launcher dies (its end of the pipe closes)
        child.getOutputStream().close();
        // then
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("exits once stdin closes").isTrue();
    }
}
