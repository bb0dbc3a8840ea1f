package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localstack.internal.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's exits before anything starts: help, and one-line errors with exit code 2. */
class LauncherTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Launcher.run(args, Map.of(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void run_shouldExit2WithOneLine_whenAFlagIsBad() {
        // when
        int code = run("--api-port", "eighty");
        // then
        assertThat(code).isEqualTo(2);
        assertThat(errors()).isEqualTo("local-stack: --api-port must be a port number from 1 to 65535 (0 = any "
                + "free port), got 'eighty'" + System.lineSeparator());
    }

    @Test
    void run_shouldExit2NamingThePortAndTheFix_whenAPortIsBusy() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // when
            int code = run("--api-port", "0", "--s3-port", "0", "--sqs-port", Integer.toString(busy.getLocalPort()));
            // then
            assertThat(code).isEqualTo(2);
            assertThat(errors()).startsWith("local-stack: port " + busy.getLocalPort() + " for the SQS endpoint is "
                    + "already in use; stop the program using it or choose another port with --sqs-port ");
            assertThat(errors().lines()).hasSize(1);
        }
    }

    @Test
    void run_shouldExit2NamingTheFile_whenTheTextModelDoesNotExist(@TempDir Path dir) {
        // when
        int code = run("--api-port", "0", "--sqs-port", "0", "--s3-port", "0", "--text-model",
                dir.resolve("missing.gguf").toString());
        // then
        assertThat(code).isEqualTo(2);
        assertThat(errors()).contains("text model " + dir.resolve("missing.gguf") + " does not exist")
                .contains("--text-model PATH");
        assertThat(errors().lines()).hasSize(1);
    }

    @Test
    void run_shouldExit2_whenTheTextModelIsNotAGgufFile(@TempDir Path dir) throws Exception {
        // given
        Path notGguf = Files.writeString(dir.resolve("model.gguf"), "<html>not a model</html>");
        // when
        int code = run("--api-port", "0", "--sqs-port", "0", "--s3-port", "0", "--text-model", notGguf.toString());
        // then
        assertThat(code).isEqualTo(2);
        assertThat(errors()).contains("is not a GGUF file");
    }

    @Test
    void run_shouldPrintUsageAndExit0_whenHelpIsAsked() {
        // given
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            // when
            int code = run("--help");
            // then
            assertThat(code).isZero();
            assertThat(captured.toString(StandardCharsets.UTF_8)).contains("--api-port=N", "--download-text-model",
                    "--backend=NAME", "-Dlocal-stack.args");
        } finally {
            System.setOut(stdout);
        }
    }
}
