package io.gpupipe.worker.backend.embedded;

import de.kherud.llama.InferenceParameters;
import de.kherud.llama.LlamaIterator;
import de.kherud.llama.LlamaModel;
import de.kherud.llama.LlamaOutput;
import de.kherud.llama.ModelParameters;
import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.worker.backend.Generation;
import io.gpupipe.worker.backend.ModelException;
import io.gpupipe.worker.consumption.ModelFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;

/**
 * Text generation with llama.cpp (de.kherud:llama) from a GGUF file, loaded once per process. One generation runs
 * at a time (a fair lock): the model object is not safe for parallel calls and on CPU they would only share the
 * same cores. Prompt caching is off so that greedy decoding is reproducible.
 */
final class LlamaText implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LlamaText.class);
    private static final AtomicBoolean NATIVE_LOADED = new AtomicBoolean();
    private static final String TMPDIR_PROPERTY = "de.kherud.llama.tmpdir";

    private final LlamaModel model;
    private final ReentrantLock lock = new ReentrantLock(true);

    private LlamaText(LlamaModel model) {
        this.model = model;
    }

    /** Records that a llama.cpp model is loaded in this JVM (any model: text or embeddings). */
    static void markNativeLoaded() {
        NATIVE_LOADED.set(true);
    }

    /** True once a llama.cpp model was loaded in this JVM (its native threads then need a hard exit). */
    static boolean nativeModelLoaded() {
        return NATIVE_LOADED.get();
    }

    static LlamaText load(Path gguf, int contextSize, int threads) {
        if (!Files.isRegularFile(gguf)) {
            throw new ModelException(ModelFailure.notConfigured("text model file not found: " + gguf
                    + " (check gpupipe.worker.embedded.text-model-path)"));
        }
        privateNativeDirectory();
        long start = System.nanoTime();
        LlamaModel model = new LlamaModel(new ModelParameters().setModel(gguf.toString()).setCtxSize(contextSize)
                .setThreads(threads).setParallel(1).disableLog());
        NATIVE_LOADED.set(true);
        LOG.infof("loaded text model %s in %d ms", gguf, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return new LlamaText(model);
    }

    /** The native library is unpacked to a directory of this process, so two workers never share one file. */
    static void privateNativeDirectory() {
        if (System.getProperty(TMPDIR_PROPERTY) != null) {
            return;
        }
        try {
            Path dir = Files.createTempDirectory("gpupipe-llama-");
            dir.toFile().deleteOnExit();
            System.setProperty(TMPDIR_PROPERTY, dir.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Generation generate(InferenceJob job, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new ModelException(ModelFailure.timeout(timeout));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelException(ModelFailure.unreachable("interrupted while waiting for the model"));
        }
        try {
            return run(job, timeout, deadline);
        } catch (ModelException e) {
            throw e;
        } catch (RuntimeException e) { // the library's LlamaException is not public
            throw new ModelException(ModelFailure.permanent("llama.cpp failed: " + e.getMessage()), e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The prompt a chat job's messages give under the GGUF's chat template ({@code tokenizer.chat_template}), with
     * the assistant's generation prompt added: llama.cpp's own template code ({@code LlamaModel.applyTemplate},
     * the server's {@code /apply-template}). A GGUF without a template gets llama.cpp's fallback, ChatML. The
     * JSON is written here rather than with {@code InferenceParameters.setMessages}, which takes one leading
     * system message only; OpenAI's format allows one anywhere.
     */
    String chatPrompt(List<ChatMessage> messages) {
        return model.applyTemplate(JobJson.write(Map.of("messages", messages)));
    }

    private Generation run(InferenceJob job, Duration timeout, long deadline) {
        String prompt = job.messages() == null ? job.prompt() : chatPrompt(job.messages());
        int promptTokens = model.encode(prompt).length;
        InferenceParameters params = new InferenceParameters(prompt).setNPredict(job.maxTokens())
                .setTemperature((float) job.temperature()).setTopP((float) job.topP()).setCachePrompt(false);
        if (job.seed() != null) {
            params.setSeed(job.seed()); // the sampler's seed; absent, llama.cpp draws a random one
        }
        // a response format constrains sampling to llama.cpp's grammar for the format's JSON Schema (its own
        // json-schema-to-grammar converter); the worker still checks the output, which maxTokens may cut short
        if (job.responseFormat() != null) {
            job.responseFormat().outputSchema().map(schema -> LlamaModel.jsonSchemaToGrammar(JobJson.write(schema)))
                    .ifPresent(params::setGrammar);
        }
        LlamaIterator tokens = model.generate(params).iterator();
        StringBuilder text = new StringBuilder();
        int completionTokens = 0;
        while (tokens.hasNext()) {
            LlamaOutput output = tokens.next();
            if (!output.text.isEmpty()) {
                completionTokens++;
                text.append(output.text);
            }
            if (Thread.currentThread().isInterrupted()) {
                tokens.cancel();
                throw new ModelException(ModelFailure.unreachable("generation interrupted"));
            }
            if (System.nanoTime() > deadline) {
                tokens.cancel();
                throw new ModelException(ModelFailure.timeout(timeout));
            }
        }
        String finishReason = completionTokens >= job.maxTokens() ? "length" : "stop";
        return new Generation(text.toString(), promptTokens, completionTokens, finishReason);
    }

    @Override
    public void close() {
        lock.lock();
        try {
            model.close();
        } finally {
            lock.unlock();
        }
    }
}
