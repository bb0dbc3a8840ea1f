package io.gpupipe.cdk;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * sam-template.yaml as AWS's SAM translator turns it into CloudFormation, the way {@code sam validate} and
 * {@code sam deploy} do: through .ci/sam-translate.py (samtranslator 1.110, installed with cfn-lint). Tests using it
 * are skipped, saying why, where python3 or samtranslator is missing; CI has both (.ci/run also lints the output).
 */
final class SamTranslation {
    static final Path SCRIPT = Path.of("..", ".ci", "sam-translate.py");
    private static final ObjectMapper JSON = new ObjectMapper();

    private SamTranslation() {
    }

    /** Translates {@code template} into {@code output} and reads it. */
    static JsonNode translate(Path template, Path output) throws IOException, InterruptedException {
        assumeTrue(available(), "python3 with samtranslator is not installed (pip install cfn-lint==1.51.0 brings "
                + "it): the translated-template tests are skipped");
        List<String> command = new ArrayList<>(List.of("python3", SCRIPT.toString(), template.toString(),
                output.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new AssertionError("the SAM translator refused " + template + ":\n" + log);
        }
        return JSON.readTree(Files.readString(output));
    }

    private static boolean available() throws InterruptedException {
        try {
            Process probe = new ProcessBuilder("python3", "-c", "import samtranslator, boto3")
                    .redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor(1, TimeUnit.MINUTES) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A policy resource or event source as one readable string: {@code ${Queue.Arn}} for a GetAtt, {@code ${X}} for
     * a Ref, a Sub's text with its variables filled in, a Join's parts joined; the results bucket's name part
     * ({@code Fn::Select 2 of the stack id}) reads {@code ${StackUuid}}.
     */
    static String render(JsonNode node) {
        if (node.isTextual() || node.isNumber()) {
            return node.asText();
        }
        if (node.has("Fn::GetAtt")) {
            return "${" + node.get("Fn::GetAtt").get(0).asText() + "." + node.get("Fn::GetAtt").get(1).asText() + "}";
        }
        if (node.has("Ref")) {
            return "${" + node.get("Ref").asText() + "}";
        }
        if (node.has("Fn::Sub")) {
            JsonNode sub = node.get("Fn::Sub");
            if (sub.isTextual()) {
                return sub.asText();
            }
            String text = sub.get(0).asText();
            var variables = sub.get(1).fields();
            while (variables.hasNext()) {
                var variable = variables.next();
                text = text.replace("${" + variable.getKey() + "}", render(variable.getValue()));
            }
            return text;
        }
        if (node.has("Fn::Join")) {
            List<String> parts = new ArrayList<>();
            node.get("Fn::Join").get(1).forEach(p -> parts.add(render(p)));
            return String.join(node.get("Fn::Join").get(0).asText(), parts);
        }
        if (node.has("Fn::Select") && node.get("Fn::Select").get(0).asInt() == 2
                && node.get("Fn::Select").get(1).toString().contains("AWS::StackId")) {
            return "${StackUuid}";
        }
        return node.toString();
    }
}
