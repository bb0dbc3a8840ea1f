package io.gpupipe.worker.backend.openai;

import io.gpupipe.model.Task;
import io.gpupipe.model.format.ResponseFormat;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.worker.backend.Embeddings;
import io.gpupipe.worker.backend.Generation;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.ModelException;
import io.gpupipe.worker.backend.ModelIdentity;
import io.gpupipe.worker.backend.SpeechAudio;
import io.gpupipe.worker.consumption.ModelFailure;
import io.gpupipe.worker.consumption.ServerLoad;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.WebApplicationException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * The production backend: an OpenAI-compatible model server next to the worker (vLLM in the same ECS task). Every
 * call gets its own deadline, enforced by cancelling the HTTP request, so the REST client's read timeout (set very
 * long) never cuts a generation short.
 */
public final class OpenAiBackend implements InferenceBackend {
    private static final Logger LOG = Logger.getLogger(OpenAiBackend.class);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration METRICS_TIMEOUT = Duration.ofSeconds(2);

    private final VllmClient client;
    private final Settings settings;
    private volatile ModelIdentity text;

    /**
     * What the configuration says about the server's models. With {@code expectedModelRoot}, the server must report
     * that root for the model in {@code GET /v1/models} before {@code modelVersion} is claimed in any result.
     */
    public record Settings(Optional<String> model, Optional<String> modelVersion, Optional<String> speechModel,
                           Optional<String> voice, Optional<String> apiKey, boolean sendPriority,
                           Optional<String> expectedModelRoot) {
    }

    public OpenAiBackend(VllmClient client, Settings settings) {
        this.client = client;
        this.settings = settings;
    }

    @Override
    public void ensureReady() {
        call(client.health(authorization()), PROBE_TIMEOUT);
        if (text == null) {
            text = discoverModel();
            LOG.infof("model server ready: model %s, version %s", text.model(), text.version());
        }
    }

    private ModelIdentity discoverModel() {
        if (settings.model().isPresent() && settings.expectedModelRoot().isEmpty()) {
            String model = settings.model().get();
            return settings.modelVersion().map(version -> ModelIdentity.pinned(model, version))
                    .orElseGet(() -> new ModelIdentity(model, model));
        }
        VllmDtos.ModelList list = call(client.models(authorization()), PROBE_TIMEOUT);
        if (list == null || list.data() == null || list.data().isEmpty()) {
            throw new ModelException(ModelFailure.httpStatus(503, "GET /v1/models listed no model yet"));
        }
        VllmDtos.ModelCard card = list.data().stream()
                .filter(c -> settings.model().map(m -> m.equals(c.id())).orElse(true))
                .findFirst()
                .orElseThrow(() -> new ModelException(ModelFailure.permanent("the model server does not serve "
                        + settings.model().orElse("?") + "; GET /v1/models lists " + list.data().stream()
                        .map(VllmDtos.ModelCard::id).toList())));
        settings.expectedModelRoot().filter(expected -> !expected.equals(card.root())).ifPresent(expected -> {
            // Another image (other weights) than the deployment pinned: claiming its version would be false.
            throw new ModelException(ModelFailure.permanent("model " + card.id() + " is served from " + card.root()
                    + ", expected " + expected + ": refusing to claim model version "
                    + settings.modelVersion().orElse(expected)));
        });
        // a configured version is the deployment's (CDK: the pinned commit, its root checked above); a discovered
        // root or id is only what the server calls its model, so it never keys the result cache
        return settings.modelVersion().map(version -> ModelIdentity.pinned(card.id(), version))
                .orElseGet(() -> new ModelIdentity(card.id(), card.root() != null ? card.root() : card.id()));
    }

    @Override
    public boolean supports(Task task) {
        return true;
    }

    @Override
    public ModelIdentity identity(Task task) {
        ModelIdentity current = text != null ? text
                : new ModelIdentity(settings.model().orElse("unknown"), settings.modelVersion().orElse("unknown"));
        if (task == Task.SPEECH && settings.speechModel().isPresent()) {
            return settings.modelVersion().map(version -> ModelIdentity.pinned(settings.speechModel().get(), version))
                    .orElseGet(() -> new ModelIdentity(settings.speechModel().get(), settings.speechModel().get()));
        }
        return current;
    }

    @Override
    public Generation generate(InferenceJob job, Duration timeout) {
        if (job.messages() != null) {
            return chat(job, timeout);
        }
        var request = new VllmDtos.CompletionRequest(identity(Task.GENERATE).model(), job.prompt(), job.maxTokens(),
                job.temperature(), job.topP(), settings.sendPriority() ? job.priority() : null, job.seed(),
                constraining(job.responseFormat()));
        VllmDtos.CompletionResponse response = call(client.completions(authorization(), request), timeout);
        if (response == null || response.choices() == null || response.choices().isEmpty()) {
            throw new ModelException(ModelFailure.httpStatus(502, "completion response had no choices"));
        }
        VllmDtos.Choice choice = response.choices().get(0);
        VllmDtos.Usage usage = response.usage();
        return new Generation(choice.text() == null ? "" : choice.text(), usage == null ? 0 : usage.promptTokens(),
                usage == null ? 0 : usage.completionTokens(), choice.finishReason());
    }

    /** A chat job goes to {@code /v1/chat/completions}, so the server applies the model's chat template. */
    private Generation chat(InferenceJob job, Duration timeout) {
        var messages = job.messages().stream()
                .map(m -> new VllmDtos.ChatMessage(m.role().wireName(), m.content())).toList();
        var request = new VllmDtos.ChatCompletionRequest(identity(Task.GENERATE).model(), messages, job.maxTokens(),
                job.temperature(), job.topP(), settings.sendPriority() ? job.priority() : null, job.seed(),
                constraining(job.responseFormat()));
        VllmDtos.ChatCompletionResponse response = call(client.chatCompletions(authorization(), request), timeout);
        if (response == null || response.choices() == null || response.choices().isEmpty()) {
            throw new ModelException(ModelFailure.httpStatus(502, "chat completion response had no choices"));
        }
        VllmDtos.ChatChoice choice = response.choices().get(0);
        String text = choice.message() == null || choice.message().content() == null ? ""
                : choice.message().content();
        VllmDtos.Usage usage = response.usage();
        return new Generation(text, usage == null ? 0 : usage.promptTokens(),
                usage == null ? 0 : usage.completionTokens(), choice.finishReason());
    }

    /** The format the server is sent: none for "text", which asks for nothing (and older servers lack the field). */
    private static ResponseFormat constraining(ResponseFormat format) {
        return format != null && format.constrains() ? format : null;
    }

    @Override
    public SpeechAudio speak(InferenceJob job, Duration timeout) {
        String voice = job.voice() != null ? job.voice() : settings.voice().orElse(null);
        var request = new VllmDtos.SpeechRequest(identity(Task.SPEECH).model(), job.prompt(), voice, "wav",
                job.language(), job.speed(), job.instructions());
        byte[] wav = call(client.speech(authorization(), request), timeout);
        return SpeechAudio.of(wav);
    }

    @Override
    public Embeddings embed(InferenceJob job, Duration timeout) {
        var request = new VllmDtos.EmbeddingRequest(identity(Task.EMBED).model(), job.input(), "float");
        VllmDtos.EmbeddingResponse response = call(client.embeddings(authorization(), request), timeout);
        if (response == null || response.data() == null || response.data().size() != job.input().size()) {
            throw new ModelException(ModelFailure.httpStatus(502, "embedding response had "
                    + (response == null || response.data() == null ? "no" : response.data().size()) + " vectors for "
                    + job.input().size() + " inputs"));
        }
        List<float[]> vectors = response.data().stream()
                .sorted(Comparator.comparingInt(VllmDtos.EmbeddingData::index))
                .map(VllmDtos.EmbeddingData::embedding).toList();
        return new Embeddings(vectors, response.usage() == null ? 0 : response.usage().promptTokens());
    }

    @Override
    public Optional<ServerLoad> load() {
        try {
            return ServerLoad.fromPrometheus(call(client.metrics(authorization()), METRICS_TIMEOUT));
        } catch (ModelException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        // the REST client belongs to Quarkus
    }

    private String authorization() {
        return settings.apiKey().map(key -> "Bearer " + key).orElse(null);
    }

    private static <T> T call(Uni<T> uni, Duration timeout) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw new ModelException(ModelFailure.timeout(Duration.ZERO));
        }
        try {
            return uni.ifNoItem().after(timeout).failWith(TimeoutException::new).await().indefinitely();
        } catch (RuntimeException e) {
            throw classify(e, timeout);
        }
    }

    static ModelException classify(Throwable error, Duration timeout) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof ModelException model) {
            return model;
        }
        if (cause instanceof TimeoutException || cause instanceof io.smallrye.mutiny.TimeoutException) {
            return new ModelException(ModelFailure.timeout(timeout), cause);
        }
        if (cause instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new ModelException(ModelFailure.unreachable("call interrupted"), cause);
        }
        if (cause instanceof WebApplicationException web && web.getResponse() != null) {
            return new ModelException(ModelFailure.httpStatus(web.getResponse().getStatus(), body(web)), cause);
        }
        return new ModelException(ModelFailure.unreachable(rootMessage(cause)), cause);
    }

    private static String body(WebApplicationException web) {
        try {
            return web.getResponse().readEntity(String.class);
        } catch (RuntimeException e) {
            return web.getMessage();
        }
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
