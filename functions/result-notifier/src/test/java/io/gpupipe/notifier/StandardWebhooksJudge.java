package io.gpupipe.notifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.testsupport.CallbackReceiver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The independent judge of our callback signatures: the reference Standard Webhooks library ({@code standardwebhooks}
 * from npm, pinned in src/test/resources/standard-webhooks-judge/package-lock.json) run with node. Installed once with
 * {@code npm ci} into target/; a test using it is skipped, saying why, when node or npm is absent or the install fails.
 */
final class StandardWebhooksJudge {
    private static final Path SOURCE = Path.of("src/test/resources/standard-webhooks-judge");
    private static final Path HOME = Path.of("target/standard-webhooks-judge");
    private static final long INSTALL_TIMEOUT_SECONDS = 300;
    private static final long VERIFY_TIMEOUT_SECONDS = 60;

    /** The library's verdict on one delivery; {@code error} is its message when it refused. */
    record Verdict(String name, boolean verified, String error) {
    }

    private StandardWebhooksJudge() {
    }

    /** The installed judge, or the calling test aborted (skipped) with the reason. */
    static StandardWebhooksJudge installed() {
        Assumptions.assumeTrue(runs("node", "--version"),
                "node is not installed: skipping the Standard Webhooks judge");
        Assumptions.assumeTrue(runs("npm", "--version"), "npm is not installed: skipping the Standard Webhooks judge");
        try {
            Files.createDirectories(HOME);
            for (String file : List.of("package.json", "package-lock.json", "verify.js")) {
                Files.copy(SOURCE.resolve(file), HOME.resolve(file),
                        StandardCopyOption.REPLACE_EXISTING);
            }
            if (!Files.isDirectory(HOME.resolve("node_modules/standardwebhooks"))) {
                Process install = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(HOME.toFile())
                        .redirectErrorStream(true).redirectOutput(HOME.resolve("npm-ci.log").toFile()).start();
                boolean done = install.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (!done) {
                    install.destroyForcibly();
                }
                Assumptions.assumeTrue(done && install.exitValue() == 0, () -> "npm ci of standardwebhooks failed "
                        + "(offline?): skipping the Standard Webhooks judge; see " + HOME.resolve("npm-ci.log"));
            }
        } catch (IOException e) {
            Assumptions.abort("cannot install the Standard Webhooks judge: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Assumptions.abort("interrupted while installing the Standard Webhooks judge");
        }
        return new StandardWebhooksJudge();
    }

    /** Each delivery verified by the library with {@code whsecSecret}, in order. */
    List<Verdict> verify(String whsecSecret, List<CallbackReceiver.Received> deliveries, List<String> names) {
        ObjectNode input = JobJson.mapper().createObjectNode().put("secret", whsecSecret);
        ArrayNode list = input.putArray("deliveries");
        for (int i = 0; i < deliveries.size(); i++) {
            ObjectNode delivery = list.addObject().put("name", names.get(i)).put("body", deliveries.get(i).body());
            deliveries.get(i).headers().forEach(delivery.putObject("headers")::put);
        }
        try {
            Path file = Files.createTempFile(HOME.toAbsolutePath(), "deliveries", ".json");
            Files.writeString(file, input.toString(), StandardCharsets.UTF_8);
            Process node = new ProcessBuilder("node", "verify.js", file.toString()).directory(HOME.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!node.waitFor(VERIFY_TIMEOUT_SECONDS, TimeUnit.SECONDS) || node.exitValue() != 0) {
                throw new IllegalStateException("the judge failed: " + out);
            }
            List<Verdict> verdicts = new ArrayList<>();
            for (JsonNode v : JobJson.read(out, JsonNode.class)) {
                verdicts.add(new Verdict(v.path("name").asText(), v.path("verified").asBoolean(),
                        v.path("error").isNull() ? null : v.path("error").asText()));
            }
            return verdicts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static boolean runs(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
