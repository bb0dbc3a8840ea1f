package io.gpupipe.localstack;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.apigateway.LocalIamPrincipals;
import io.gpupipe.localstack.apigateway.SigV4Authorizer;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.api.ApiDescription;
import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What the launcher prints once the stack is ready: the endpoints, and copy-paste examples that work as printed
 * (fresh request ids each start, so the status and S3 commands refer to the jobs the curl commands submit).
 */
public final class Banner {
    static final String AWS_ENV = "AWS_ACCESS_KEY_ID=" + LocalAws.ACCESS_KEY + " AWS_SECRET_ACCESS_KEY="
            + LocalAws.SECRET_KEY + " AWS_DEFAULT_REGION=" + LocalAws.REGION;

    private Banner() {
    }

    /** One copy-paste example: what it does, and the shell command. */
    public record Example(String title, String command) {
    }

    /** The request ids the examples use. */
    public record ExampleIds(String speech, String text, String direct) {
        public static ExampleIds random() {
            return new ExampleIds(UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                    UUID.randomUUID().toString());
        }
    }

    /** The examples for a stack whose API takes requests without a token (the anonymous caller). */
    public static List<Example> examples(URI api, LocalAws aws, ExampleIds ids) {
        return examples(api, aws, ids, false);
    }

    /**
     * The examples; with {@code requireToken} the API calls carry caller A's token ({@code $TOKEN_A}, which the
     * banner prints as an {@code export} line). Requests are stored under an id derived from their caller and the
     * client's requestId (docs/security.md), so the S3 key of an API job's audio is the derived one.
     */
    public static List<Example> examples(URI api, LocalAws aws, ExampleIds ids, boolean requireToken) {
        String auth = requireToken ? "-H \"Authorization: Bearer $TOKEN_A\" " : "";
        CallerIdentity caller = requireToken ? new CallerIdentity.Jwt(LocalCallers.ISSUER, LocalCallers.CALLER_A)
                : CallerIdentity.ANONYMOUS;
        String storedSpeech = JobKey.submitted(aws.ownerIds().of(caller), ids.speech()).storedId();
        String sqs = aws.sqsEndpoint().toString();
        String s3 = aws.s3Endpoint().toString();
        String results = "s3://" + aws.bucket() + "/results/";
        List<Example> examples = new ArrayList<>();
        String curl = "curl -s -w '\\n' " + auth;
        examples.add(new Example("a speech job (FreeTTS, WAV result)", curl + "-X POST " + api + "/v1/jobs -H "
                + "'Content-Type: application/json' -d '{\"requestId\":\"" + ids.speech() + "\",\"task\":\"speech\","
                + "\"prompt\":\"Hello from the gpupipe local stack.\"}'"));
        examples.add(new Example("a text job", curl + "-X POST " + api + "/v1/jobs -H 'Content-Type: "
                + "application/json' -d '{\"requestId\":\"" + ids.text() + "\",\"prompt\":\"Once upon a time\","
                + "\"maxTokens\":64}'"));
        examples.add(new Example("the speech job's status (and result once done)", curl + api + "/v1/jobs/"
                + ids.speech()));
        // straight onto the speech tier's queue, without the API (a worker refuses tasks its tier does not serve)
        Tier speech = aws.tiers().defaultTier(Task.SPEECH);
        examples.add(new Example("a job sent straight to the " + speech + " queue, without the API", AWS_ENV
                + " aws --endpoint-url " + sqs + " sqs send-message --queue-url "
                + aws.queueUrl(speech) + " --message-body '{\"requestId\":\"" + ids.direct()
                + "\",\"task\":\"speech\",\"prompt\":\"Sent straight to the " + speech + " queue.\"}'"));
        // a producer's job is the queue owner's, stored under the id derived from that owner and its requestId
        examples.add(new Example("its result from S3", AWS_ENV + " aws --endpoint-url " + s3 + " s3 cp " + results
                + JobKey.submitted(Owner.QUEUE, ids.direct()).storedId() + ".json -"));
        examples.add(new Example("the speech job's audio", AWS_ENV + " aws --endpoint-url " + s3 + " s3 cp "
                + results + storedSpeech + ".wav hello.wav"));
        return examples;
    }

    public static String render(LocalStack stack, List<Example> examples, Duration readyIn) {
        LaunchOptions options = stack.options();
        LocalAws aws = stack.aws();
        StringBuilder b = new StringBuilder("\n");
        b.append(String.format(Locale.ROOT, "gpupipe local stack is ready (%.1f s)%n%n", readyIn.toMillis() / 1000.0));
        row(b, "HTTP API (router)", stack.apiUri() + "  POST /v1/jobs, POST /infer, GET|DELETE /v1/jobs/{id}, "
                + "POST /v1/batches[/uploads], GET|DELETE /v1/batches/{id}, GET /v1/batches/{id}/output|errors, "
                + "POST /v1/batches/{id}/retry");
        row(b, "API description", stack.apiUri() + ApiDescription.PATH + "  (OpenAPI 3.1)");
        callers(b, stack);
        stack.consoleUri().ifPresent(uri -> row(b, "web console", uri + "  jobs, queues, workers, DLQ, scaling "
                + "(local only; " + (options.requireToken() ? "asks for a token, shows that caller's jobs; " : "")
                + "--no-console turns it off)"));
        row(b, "SQS (ElasticMQ)", aws.sqsEndpoint() + "  queues " + aws.tiers().tiers().stream()
                .map(TierDefinition::queue).collect(Collectors.joining(", ")) + ", " + LocalAws.DLQ
                + " (redrive after " + aws.maxReceiveCount() + " receives)");
        row(b, "S3 (S3Proxy)", aws.s3Endpoint() + "  bucket " + aws.bucket() + (options.dataDir() == null
                ? " (in memory)" : " (on disk: " + options.dataDir().toAbsolutePath() + ")"));
        row(b, "workers", options.workers().isEmpty() ? "none (--workers none)" : options.workers().stream()
                .map(Tier::wireName).collect(Collectors.joining(", ")) + " - " + backend(stack));
        row(b, "router invoke API", invoke(stack.functions().router()));
        stack.functions().notifier().ifPresent(f -> row(b, "result notifier", invoke(f)
                + "  (S3 results/*.json events; SNS "
                + "and signed callbacks, secret " + ComponentEnvironment.CALLBACK_SECRET + ", for Standard Webhooks "
                + "libraries " + CallbackKey.of(ComponentEnvironment.CALLBACK_SECRET).whsec() + ")"));
        stack.functions().scalingMetric().ifPresent(f -> row(b, "scaling metric", invoke(f) + "  (every "
                + options.metricInterval().toSeconds() + " s; prints what it would publish)"));
        if (options.backend() == Backend.EMBEDDED && stack.textModel().isEmpty()) {
            b.append("\nNo text model: text jobs will end failed/model_unavailable. Give one with --text-model "
                    + "FILE.gguf (or GPUPIPE_TEXT_MODEL), or add --download-text-model.\n");
        }
        stack.notes().forEach(n -> b.append("Note: ").append(n).append('\n'));
        b.append("\nTry it (copy-paste):\n");
        for (Example e : examples) {
            b.append("  # ").append(e.title()).append('\n').append("  ").append(e.command()).append('\n');
        }
        b.append("\nCtrl-C drains the workers, stops everything and exits.\n");
        return b.toString();
    }

    /** The two local callers' tokens, ready to paste, and how the API treats a request without one. */
    private static void callers(StringBuilder b, LocalStack stack) {
        LocalCallers callers = stack.callers();
        List<Map.Entry<String, String>> tokens = callers.callerTokens();
        row(b, "callers (JWT)", "export TOKEN_A=" + tokens.get(0).getValue() + "   # " + tokens.get(0).getKey());
        row(b, "", "export TOKEN_B=" + tokens.get(1).getValue() + "   # " + tokens.get(1).getKey());
        row(b, "", "send -H \"Authorization: Bearer $TOKEN_A\"; JWKS " + stack.apiUri() + LocalStack.JWKS_PATH
                + ", issuer " + LocalCallers.ISSUER + ", audience " + LocalCallers.AUDIENCE + "; "
                + (callers.required() ? "a request without a token gets 401 (--require-token)"
                : "a request without a token is the one anonymous caller (--require-token refuses it)"));
        String title = "callers (SigV4)";
        for (LocalIamPrincipals.Principal session : callers.principals().all()) {
            row(b, title, session.exportLine() + "   # " + session.userArn());
            title = "";
        }
        row(b, "", "sign for service " + SigV4Authorizer.SERVICE + " in " + LocalAws.REGION + " (awscurl --service "
                + SigV4Authorizer.SERVICE + "); sessions of one role are one caller");
    }

    private static String backend(LocalStack stack) {
        if (stack.options().backend() == Backend.OPENAI) {
            return "openai backend at " + stack.options().modelServerUrl();
        }
        Optional<java.nio.file.Path> model = stack.textModel();
        return "embedded backend: speech by FreeTTS, text by llama.cpp " + model.map(p -> "with " + p)
                .orElse("(no model)");
    }

    private static String invoke(LambdaFunction function) {
        return "curl -d @event.json " + function.invokeUri();
    }

    private static void row(StringBuilder b, String name, String value) {
        b.append(String.format(Locale.ROOT, "  %-20s %s%n", name, value));
    }
}
