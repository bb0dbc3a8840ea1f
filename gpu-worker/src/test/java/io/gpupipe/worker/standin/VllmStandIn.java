package io.gpupipe.worker.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.ModelServerContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for a GPU vLLM server (no GPU here): the OpenAI-compatible HTTP contract vLLM serves
 * ({@code POST /v1/completions}, {@code POST /v1/chat/completions}, {@code POST /v1/audio/speech} as vLLM-Omni,
 * {@code POST /v1/embeddings} as {@code vllm serve --runner pooling},
 * {@code GET /health}, {@code GET /v1/models}, Prometheus {@code GET /metrics} with
 * {@code vllm:num_requests_running/waiting}) over a continuous-batching timing model ({@link BatchingEngine}), with
 * fault injection: HTTP 500 for the next calls, down (connection refused), and slow sequences.
 *
 * <p>Start-up follows vLLM's contract: {@code vllm serve} binds its port before it builds the engine but serves HTTP
 * only once the engine is up (vllm/entrypoints/openai/api_server.py: {@code setup_server} binds the socket, "before
 * the engine is set up"; {@code build_and_serve} starts uvicorn after {@code build_async_engine_client} returned, i.e.
 * after weights, profiling and CUDA graph capture). A bound socket that does not listen refuses connections, so
 * during the {@link Settings#loadDelay} every endpoint, {@code /health} and {@code /v1/models} included, answers
 * "connection refused"; then all of them answer at once.
 */
public final class VllmStandIn implements AutoCloseable {
    private static final String REQUEST_BYTES = "gpupipe.request-bytes";
    private static final String[] WORDS = {"the", "little", "robot", "found", "a", "bright", "red", "ball", "and",
        "rolled", "it", "across", "green", "hill", "while", "birds", "sang"};

    private final Settings settings;
    private final BatchingEngine engine;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "vllm-standin-http");
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentLinkedQueue<String> completionPrompts = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<JsonNode> completionRequests = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<JsonNode> chatRequests = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> speechInputs = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<JsonNode> speechRequests = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<JsonNode> embeddingRequests = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Exchange> exchanges = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    private final Map<String, Duration> slow = new ConcurrentHashMap<>();
    private final AtomicInteger successes = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> generatedPrompts = new ConcurrentLinkedQueue<>();
    private volatile int port;
    private volatile InetAddress address = InetAddress.getLoopbackAddress();
    private volatile HttpServer server;
    private volatile boolean healthy = true;
    private volatile boolean loading;
    private volatile boolean chatTemplate = true;

    /**
     * Capacity and timing of the simulated server; {@code ignoreEos} makes every completion max_tokens long.
     * {@code schedulingPolicy} is vLLM's {@code --scheduling-policy} (default {@code fcfs}), {@code maxModelLen} its
     * {@code --max-model-len}, {@code modelRoot} the path it was started on ({@code GET /v1/models} reports it as the
     * model's root). {@code contract} is the one API a real server speaks: vLLM's text API, or vLLM-Omni's speech API
     * ({@code vllm serve ... --omni}); empty (the default) answers both, so that one app-level test resource serves
     * every worker test, while {@link #fromServerArgs} gives the server a deployment's flags start.
     */
    public record Settings(int maxSequences, Duration stepTime, double stepGrowth, String model, String apiKey,
                           boolean ignoreEos, String schedulingPolicy, int maxModelLen, String modelRoot,
                           Optional<ModelServerContract> contract, Duration loadDelay) {
        public static Settings defaults() {
            return new Settings(8, Duration.ofMillis(2), 0.01, "stand-in/tiny-llm", null, false, "fcfs", 4096, null,
                    Optional.empty(), Duration.ZERO);
        }

        /** How long the server loads its model after start: connections are refused until then (vLLM's start-up). */
        public Settings withLoadDelay(Duration delay) {
            return new Settings(maxSequences, stepTime, stepGrowth, model, apiKey, ignoreEos, schedulingPolicy,
                    maxModelLen, modelRoot, contract, delay);
        }

        /**
         * The settings {@code vllm serve <model path> <flags>} gives: the path (the model's root),
         * {@code --served-model-name}, {@code --max-model-len}, {@code --max-num-seqs}, {@code --scheduling-policy},
         * and {@code --omni} (vLLM-Omni: the speech API; without it vLLM's text API only); timing stays at the
         * defaults, other flags are ignored.
         */
        public static Settings fromServerArgs(List<String> args) {
            int runner = args.indexOf("--runner");
            boolean pooling = runner >= 0 && runner + 1 < args.size() && "pooling".equals(args.get(runner + 1));
            Settings settings = defaults().withContract(args.contains("--omni") ? ModelServerContract.SPEECH
                    : pooling ? ModelServerContract.EMBEDDING : ModelServerContract.TEXT);
            if (!args.isEmpty() && !args.get(0).startsWith("--")) {
                settings = settings.withModelRoot(args.get(0));
            }
            for (int i = 0; i + 1 < args.size(); i++) {
                String value = args.get(i + 1);
                settings = switch (args.get(i)) {
                    case "--served-model-name" -> settings.withModel(value);
                    case "--max-model-len" -> settings.withMaxModelLen(Integer.parseInt(value));
                    case "--max-num-seqs" -> settings.withMaxSequences(Integer.parseInt(value));
                    case "--scheduling-policy" -> settings.withSchedulingPolicy(value);
                    default -> settings;
                };
            }
            return settings;
        }

        /** What {@code GET /v1/models} reports as the root: the path served, or one derived from the model name. */
        public String root() {
            return modelRoot != null ? modelRoot : "/models/" + model;
        }

        public Settings withMaxSequences(int n) {
            return new Settings(n, stepTime, stepGrowth, model, apiKey, ignoreEos, schedulingPolicy, maxModelLen,
                    modelRoot, contract, loadDelay);
        }

        public Settings withStep(Duration step, double growth) {
            return new Settings(maxSequences, step, growth, model, apiKey, ignoreEos, schedulingPolicy, maxModelLen,
                    modelRoot, contract, loadDelay);
        }

        public Settings withApiKey(String key) {
            return new Settings(maxSequences, stepTime, stepGrowth, model, key, ignoreEos, schedulingPolicy,
                    maxModelLen, modelRoot, contract, loadDelay);
        }

        public Settings withIgnoreEos(boolean ignore) {
            return new Settings(maxSequences, stepTime, stepGrowth, model, apiKey, ignore, schedulingPolicy,
                    maxModelLen, modelRoot, contract, loadDelay);
        }

        public Settings withModel(String name) {
            return new Settings(maxSequences, stepTime, stepGrowth, name, apiKey, ignoreEos, schedulingPolicy,
                    maxModelLen, modelRoot, contract, loadDelay);
        }

        public Settings withSchedulingPolicy(String policy) {
            return new Settings(maxSequences, stepTime, stepGrowth, model, apiKey, ignoreEos, policy, maxModelLen,
                    modelRoot, contract, loadDelay);
        }

        public Settings withMaxModelLen(int tokens) {
            return new Settings(maxSequences, stepTime, stepGrowth, model, apiKey, ignoreEos, schedulingPolicy,
                    tokens, modelRoot, contract, loadDelay);
        }

        public Settings withModelRoot(String root) {
            return new Settings(maxSequences, stepTime, stepGrowth, model, apiKey, ignoreEos, schedulingPolicy,
                    maxModelLen, root, contract, loadDelay);
        }

        public Settings withContract(ModelServerContract served) {
            return new Settings(maxSequences, stepTime, stepGrowth, model, apiKey, ignoreEos, schedulingPolicy,
                    maxModelLen, modelRoot, Optional.of(served), loadDelay);
        }
    }

    private VllmStandIn(Settings settings, int port) {
        this.settings = settings;
        this.engine = new BatchingEngine(settings.maxSequences(), settings.stepTime(), settings.stepGrowth());
        this.port = port;
    }

    /** Starts the server; with a {@link Settings#loadDelay} it refuses connections until the delay has passed. */
    public static VllmStandIn start(Settings settings) {
        VllmStandIn standIn = new VllmStandIn(settings, 0);
        standIn.listen(0);
        if (!settings.loadDelay().isZero() && !settings.loadDelay().isNegative()) {
            standIn.startLoading();
            Thread loader = new Thread(() -> {
                try {
                    Thread.sleep(settings.loadDelay().toMillis()); // simulates vLLM loading the weights
                    standIn.finishLoading();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "vllm-standin-load");
            loader.setDaemon(true);
            loader.start();
        }
        return standIn;
    }

    /** Listens on {@code host:port}, as {@code vllm serve --host --port} does (the container image's server). */
    public static VllmStandIn start(Settings settings, InetAddress host, int port) {
        VllmStandIn standIn = new VllmStandIn(settings, port);
        standIn.address = host;
        standIn.listen(port);
        return standIn;
    }

    /** The model is loading again (as after a restart): connections are refused until {@link #finishLoading}. */
    public synchronized void startLoading() {
        loading = true;
        server.stop(0);
    }

    /** The engine is up: the server listens on its port and answers everything at once. */
    public synchronized void finishLoading() {
        if (loading) {
            loading = false;
            listen(port);
        }
    }

    /** True while the model loads (connections refused). */
    public boolean loading() {
        return loading;
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public Settings settings() {
        return settings;
    }

    // ---- fault injection ----

    /** The next {@code count} inference calls whose prompt contains {@code fragment} answer HTTP 500. */
    public void failNext(int count, String fragment) {
        failures.put(fragment, new AtomicInteger(count));
    }

    /** Inference calls whose prompt contains {@code fragment} take at least {@code duration}. */
    public void slow(String fragment, Duration duration) {
        slow.put(fragment, duration);
    }

    /** Stops listening: calls get "connection refused", as when the vLLM process died. */
    public synchronized void down() {
        healthy = false;
        server.stop(0);
    }

    /** Listens again on the same port. */
    public synchronized void up() {
        listen(port);
        healthy = true;
    }

    /** While false, {@code /health} answers 503 (vLLM still loading its weights). */
    public void healthy(boolean value) {
        healthy = value;
    }

    /** While false, the served tokenizer has no chat template: every chat request is refused as vLLM does. */
    public void chatTemplate(boolean value) {
        chatTemplate = value;
    }

    // ---- observations ----

    /** The last {@code /v1/chat/completions} body one of whose messages contains {@code fragment}. */
    public Optional<JsonNode> lastChatRequest(String fragment) {
        return chatRequests.stream().filter(b -> ChatContract.render(b.path("messages")).contains(fragment))
                .reduce((first, second) -> second);
    }

    public int completionsWith(String fragment) {
        return (int) completionPrompts.stream().filter(p -> p.contains(fragment)).count();
    }

    /** The last {@code /v1/completions} body whose prompt contains {@code fragment}. */
    public Optional<JsonNode> lastCompletionRequest(String fragment) {
        return completionRequests.stream().filter(b -> b.path("prompt").asText().contains(fragment))
                .reduce((first, second) -> second);
    }

    /** The last {@code /v1/audio/speech} body whose input contains {@code fragment}. */
    public Optional<JsonNode> lastSpeechRequest(String fragment) {
        return speechRequests.stream().filter(b -> b.path("input").asText().contains(fragment))
                .reduce((first, second) -> second);
    }

    /**
     * One HTTP exchange as it went over the wire: the request's method, path, Accept header and body bytes, and the
     * answer's status, Content-Type and body bytes (what the OpenAI schema tests judge).
     */
    public record Exchange(String method, String path, String accept, byte[] request, int status, String contentType,
                           byte[] response) {
        public String requestText() {
            return new String(request, StandardCharsets.UTF_8);
        }

        public String responseText() {
            return new String(response, StandardCharsets.UTF_8);
        }
    }

    /** Every exchange so far, in the order the answers were sent. */
    public List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    public int speechWith(String fragment) {
        return (int) speechInputs.stream().filter(p -> p.contains(fragment)).count();
    }

    public int successfulCalls() {
        return successes.get();
    }

    public int running() {
        return engine.running();
    }

    public int waiting() {
        return engine.waiting();
    }

    public int maxWaitingSeen() {
        return engine.maxWaitingSeen();
    }

    /** Every {@code /v1/completions} prompt received, in arrival order (failed calls included). */
    public List<String> completionPrompts() {
        return List.copyOf(completionPrompts);
    }

    /** The prompt (or speech input) of every generation the engine finished: GPU work done, once each. */
    public List<String> generatedPrompts() {
        return List.copyOf(generatedPrompts);
    }

    public void resetStatistics() {
        engine.resetStatistics();
        successes.set(0);
    }

    // ---- HTTP ----

    private void listen(int onPort) {
        try {
            HttpServer created = HttpServer.create(new InetSocketAddress(address, onPort),
                    256);
            created.setExecutor(executor);
            created.createContext("/", this::handle);
            created.start();
            server = created;
            port = created.getAddress().getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] request = exchange.getRequestBody().readAllBytes();
            exchange.setAttribute(REQUEST_BYTES, request);
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (settings.apiKey() != null && !("Bearer " + settings.apiKey()).equals(
                    exchange.getRequestHeaders().getFirst("Authorization"))) {
                error(exchange, 401, "AuthenticationError", "missing or wrong API key");
            } else if ("GET".equals(method) && "/health".equals(path)) {
                send(exchange, healthy ? 200 : 503, "text/plain", new byte[0]);
            } else if ("GET".equals(method) && "/v1/models".equals(path)) {
                json(exchange, 200, models());
            } else if ("GET".equals(method) && "/metrics".equals(path)) {
                send(exchange, 200, "text/plain; version=0.0.4", metrics().getBytes(StandardCharsets.UTF_8));
            } else if ("POST".equals(method) && "/v1/completions".equals(path) && serves(ModelServerContract.TEXT)) {
                completion(exchange, JobJson.mapper().readTree(request));
            } else if ("POST".equals(method) && "/v1/chat/completions".equals(path)
                    && serves(ModelServerContract.TEXT)) {
                chatCompletion(exchange, JobJson.mapper().readTree(request));
            } else if ("POST".equals(method) && "/v1/embeddings".equals(path)
                    && serves(ModelServerContract.EMBEDDING)) {
                embeddings(exchange, JobJson.mapper().readTree(request));
            } else if ("POST".equals(method) && "/v1/audio/speech".equals(path)
                    && serves(ModelServerContract.SPEECH)) {
                speech(exchange, JobJson.mapper().readTree(request));
            } else {
                // a route the server does not have: FastAPI's own 404, as vLLM answers it (vllm-project/vllm#5082:
                // "POST /generate HTTP/1.1" 404, {"detail":"Not Found"}); a text server has no /v1/audio/speech, and
                // a pooling server registers only the routes of its pooling tasks (no completions)
                json(exchange, 404, JobJson.mapper().createObjectNode().put("detail", "Not Found"));
            }
        } catch (RuntimeException e) {
            // the client went away mid-response, like any HTTP server we just drop it
        }
    }

    private void completion(HttpExchange exchange, JsonNode body) throws IOException {
        String prompt = body.path("prompt").asText("");
        Optional<Answer> answer = answer(exchange, body, prompt, completionRequests);
        if (answer.isEmpty()) {
            return;
        }
        ObjectNode response = JobJson.mapper().createObjectNode();
        response.put("id", "cmpl-" + Integer.toHexString(prompt.hashCode())).put("object", "text_completion")
                .put("created", System.currentTimeMillis() / 1000).put("model", settings.model());
        response.putArray("choices").addObject().put("index", 0).put("text", answer.get().text())
                .putNull("logprobs").put("finish_reason", answer.get().finishReason()).putNull("stop_reason");
        json(exchange, 200, answer.get().withUsage(response));
    }

    /** {@code POST /v1/chat/completions}: vLLM's schema and template checks ({@link ChatContract}), then as above. */
    private void chatCompletion(HttpExchange exchange, JsonNode body) throws IOException {
        Optional<String> schemaError = ChatContract.schemaError(body);
        if (schemaError.isPresent()) {
            error(exchange, 400, "BadRequestError", schemaError.get());
            return;
        }
        if (!chatTemplate) {
            error(exchange, 400, "BadRequestError", ChatContract.NO_CHAT_TEMPLATE);
            return;
        }
        String prompt = ChatContract.render(body.path("messages"));
        Optional<Answer> answer = answer(exchange, body, prompt, chatRequests);
        if (answer.isEmpty()) {
            return;
        }
        // vLLM's ChatCompletionResponse (chat_completion/protocol.py): choices[].message is its ChatMessage, whose
        // unset fields are answered as null (tool_calls is dropped when empty); OpenAI requires refusal
        ObjectNode response = JobJson.mapper().createObjectNode();
        response.put("id", "chatcmpl-" + Integer.toHexString(prompt.hashCode())).put("object", "chat.completion")
                .put("created", System.currentTimeMillis() / 1000).put("model", settings.model());
        ObjectNode choice = response.putArray("choices").addObject().put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", answer.get().text()).putNull("refusal")
                .putNull("annotations").putNull("audio").putNull("function_call").putNull("reasoning");
        choice.putNull("logprobs").put("finish_reason", answer.get().finishReason()).putNull("stop_reason");
        json(exchange, 200, answer.get().withUsage(response));
    }

    /** A generation's text and counts; empty when the request was answered with an error already. */
    private record Answer(String text, int promptTokens, int generated, String finishReason) {
        /** vLLM's UsageInfo (engine/protocol.py): prompt_tokens_details is null unless prompt caching reports. */
        ObjectNode withUsage(ObjectNode response) {
            response.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", generated)
                    .put("total_tokens", promptTokens + generated).putNull("prompt_tokens_details");
            return response;
        }
    }

    private Optional<Answer> answer(HttpExchange exchange, JsonNode body, String prompt,
                                    ConcurrentLinkedQueue<JsonNode> requests) throws IOException {
        int maxTokens = body.path("max_tokens").asInt(16);
        if (!settings.model().equals(body.path("model").asText())) {
            error(exchange, 404, "NotFoundError", "The model `" + body.path("model").asText() + "` does not exist.");
            return Optional.empty();
        }
        completionPrompts.add(prompt);
        requests.add(body);
        Optional<String> rejection = rejectCompletion(body, prompt, maxTokens);
        if (rejection.isPresent()) {
            error(exchange, 400, "BadRequestError", rejection.get());
            return Optional.empty();
        }
        if (injectedFailure(exchange, prompt)) {
            return Optional.empty();
        }
        // guided decoding (response_format): the schema's document, cut at max_tokens like any generation
        Optional<String> guided = StructuredOutputContract.document(body, words(prompt));
        int natural = guided.map(StructuredOutputContract::tokens).orElse(8 + Math.floorMod(prompt.hashCode(), 24));
        int tokens = settings.ignoreEos() ? maxTokens : Math.min(maxTokens, natural);
        int generated = generate(tokens, prompt);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < generated && guided.isEmpty(); i++) {
            text.append(' ').append(WORDS[Math.floorMod(prompt.hashCode() + i, WORDS.length)]);
        }
        guided.ifPresent(document -> text.append(StructuredOutputContract.prefix(document, generated)));
        successes.incrementAndGet();
        String finishReason = generated >= maxTokens && natural > maxTokens || settings.ignoreEos() ? "length"
                : "stop";
        return Optional.of(new Answer(text.toString(), promptTokens(prompt), generated, finishReason));
    }

    /**
     * The stand-in's tokenizer: one token per whitespace-separated word plus one for BOS (what usage.prompt_tokens
     * reports too). Real tokenizers split finer; tests size prompts in these tokens.
     */
    static int promptTokens(String prompt) {
        return prompt.isBlank() ? 1 : prompt.trim().split("\\s+").length + 1;
    }

    /**
     * vLLM's request checks the worker depends on, with vLLM's messages (all HTTP 400 BadRequestError):
     * <ul>
     * <li>priority: vLLM's engine rejects {@code priority != 0} unless {@code --scheduling-policy priority}
     * ("Got priority {p} but Priority scheduling is not enabled.", vllm/v1/engine processor / AsyncLLMEngine
     * add_request).</li>
     * <li>context: the OpenAI server's {@code _validate_input} (vllm/entrypoints/openai/engine/serving.py) rejects
     * a prompt of at least max_model_len tokens, and a prompt plus max_tokens above it ("'max_tokens' or
     * 'max_completion_tokens' is too large: ...").</li>
     * </ul>
     */
    private Optional<String> rejectCompletion(JsonNode body, String prompt, int maxTokens) {
        int inputTokens = promptTokens(prompt);
        int maxModelLen = settings.maxModelLen();
        if (inputTokens >= maxModelLen) {
            return Optional.of("This model's maximum context length is " + maxModelLen + " tokens. However, your "
                    + "request has " + inputTokens + " input tokens. Please reduce the length of the input messages.");
        }
        if (inputTokens + maxTokens > maxModelLen) {
            return Optional.of("'max_tokens' or 'max_completion_tokens' is too large: " + maxTokens + ". This "
                    + "model's maximum context length is " + maxModelLen + " tokens and your request has "
                    + inputTokens + " input tokens (" + maxTokens + " > " + maxModelLen + " - " + inputTokens
                    + "). (parameter=max_tokens, value=" + maxTokens + ")");
        }
        // the serving layer checks the input first; the engine then checks the priority
        int priority = body.path("priority").asInt(0);
        if (priority != 0 && !"priority".equals(settings.schedulingPolicy())) {
            return Optional.of("Got priority " + priority + " but Priority scheduling is not enabled.");
        }
        return StructuredOutputContract.reject(body);
    }

    /** Two of the stand-in's words, picked by the prompt, for the strings of a guided document. */
    private static String[] words(String prompt) {
        return new String[] {WORDS[Math.floorMod(prompt.hashCode(), WORDS.length)],
            WORDS[Math.floorMod(prompt.hashCode() + 1, WORDS.length)]};
    }

    /** True when this server has {@code contract}'s routes: its one contract, or every one when it has none. */
    private boolean serves(ModelServerContract contract) {
        return settings.contract().map(c -> c == contract).orElse(true);
    }

    /** {@code POST /v1/embeddings}: vLLM's pooling server ({@link EmbeddingContract}). */
    private void embeddings(HttpExchange exchange, JsonNode body) throws IOException {
        if (!settings.model().equals(body.path("model").asText())) {
            error(exchange, 404, "NotFoundError", "The model `" + body.path("model").asText() + "` does not exist.");
            return;
        }
        embeddingRequests.add(body);
        Optional<String> rejection = EmbeddingContract.reject(body, settings.model(), settings.maxModelLen());
        if (rejection.isPresent()) {
            error(exchange, 400, "BadRequestError", rejection.get());
            return;
        }
        String text = String.join(" ", EmbeddingContract.inputs(body).orElseThrow());
        if (injectedFailure(exchange, text)) {
            return;
        }
        generate(1, text); // one engine step: a pooling model runs its batch's inputs in one forward pass
        successes.incrementAndGet();
        json(exchange, 200, EmbeddingContract.answer(body, settings.model()));
    }

    /** The bodies of {@code POST /v1/embeddings} requests, in arrival order. */
    public List<JsonNode> embeddingRequests() {
        return List.copyOf(embeddingRequests);
    }

    private void speech(HttpExchange exchange, JsonNode body) throws IOException {
        String input = body.path("input").asText("");
        speechInputs.add(input);
        speechRequests.add(body);
        Optional<String> rejection = SpeechContract.reject(body);
        if (rejection.isPresent()) {
            error(exchange, 400, "BadRequestError", rejection.get());
            return;
        }
        if (injectedFailure(exchange, input)) {
            return;
        }
        generate(Math.max(1, input.length() / 4), input);
        byte[] wav = SpeechTone.wav(input, 24_000);
        successes.incrementAndGet();
        send(exchange, 200, "audio/wav", wav);
    }

    private int generate(int tokens, String prompt) {
        Duration minimum = slow.entrySet().stream().filter(e -> prompt.contains(e.getKey()))
                .map(Map.Entry::getValue).findFirst().orElse(Duration.ZERO);
        try {
            int generated = engine.submit(tokens, minimum).done.get(10, TimeUnit.MINUTES);
            generatedPrompts.add(prompt);
            return generated;
        } catch (Exception e) {
            throw new IllegalStateException("generation aborted", e);
        }
    }

    private boolean injectedFailure(HttpExchange exchange, String prompt) throws IOException {
        for (Map.Entry<String, AtomicInteger> rule : failures.entrySet()) {
            if (prompt.contains(rule.getKey()) && rule.getValue().getAndDecrement() > 0) {
                error(exchange, 500, "InternalServerError", "injected failure: EngineCore encountered an issue");
                return true;
            }
        }
        return false;
    }

    private ObjectNode models() {
        ObjectNode list = JobJson.mapper().createObjectNode().put("object", "list");
        list.putArray("data").addObject().put("id", settings.model()).put("object", "model")
                .put("created", 1_700_000_000L).put("owned_by", "vllm").put("root", settings.root())
                .putNull("parent").put("max_model_len", settings.maxModelLen());
        return list;
    }

    private String metrics() {
        String labels = "{engine=\"0\",model_name=\"" + settings.model() + "\"}";
        return String.join("\n", List.of(
                "# HELP vllm:num_requests_running Number of requests in model execution batches.",
                "# TYPE vllm:num_requests_running gauge",
                "vllm:num_requests_running" + labels + " " + engine.running() + ".0",
                "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.",
                "# TYPE vllm:num_requests_waiting gauge",
                "vllm:num_requests_waiting" + labels + " " + engine.waiting() + ".0",
                "# HELP vllm:request_success_total Count of successfully processed requests.",
                "# TYPE vllm:request_success_total counter",
                "vllm:request_success_total" + labels + " " + successes.get() + ".0", ""));
    }

    /**
     * vLLM's error body: {@code ErrorResponse{error: ErrorInfo{message, type, param, code}}} with {@code code} the
     * HTTP status (vllm/entrypoints/openai/protocol.py; vLLM-Omni answers the same way).
     */
    private void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        ObjectNode body = JobJson.mapper().createObjectNode();
        body.putObject("error").put("message", message).put("type", type).putNull("param").put("code", status);
        json(exchange, status, body);
    }

    private void json(HttpExchange exchange, int status, JsonNode body) throws IOException {
        send(exchange, status, "application/json", body.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchanges.add(new Exchange(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                exchange.getRequestHeaders().getFirst("Accept"), (byte[]) exchange.getAttribute(REQUEST_BYTES), status,
                type, body));
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        engine.close();
        server.stop(0);
        executor.shutdownNow();
    }
}
