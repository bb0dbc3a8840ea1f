package io.gpupipe.worker.backend.embedded;

import de.kherud.llama.LlamaModel;
import de.kherud.llama.ModelParameters;
import de.kherud.llama.args.PoolingType;
import io.gpupipe.worker.consumption.ModelFailure;
import io.gpupipe.worker.backend.Embeddings;
import io.gpupipe.worker.backend.ModelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;

/**
 * Embeddings with llama.cpp (de.kherud:llama's {@code LlamaModel.embed}) from a GGUF file loaded in embedding mode
 * ({@code ModelParameters.enableEmbedding()}, llama.cpp's {@code --embedding}) with last-token pooling: a
 * decoder-only GGUF such as TinyStories names no pooling of its own, and in a causal model only the last token has
 * seen the whole input (decoder embedding models such as Qwen3-Embedding pool so too). Mean pooling is not offered:
 * the llama.cpp of de.kherud:llama 4.2.0 aborts the JVM on it with this model ({@code GGML_ASSERT(ggml_can_mul_mat(a,
 * b))} when the context is built). llama.cpp answers unit-length (L2-normalised) vectors. One input at a time (a
 * fair lock), like {@link LlamaText}: the model object is not safe for parallel calls.
 */
final class LlamaEmbeddings implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LlamaEmbeddings.class);

    private final LlamaModel model;
    private final ReentrantLock lock = new ReentrantLock(true);

    private LlamaEmbeddings(LlamaModel model) {
        this.model = model;
    }

    static LlamaEmbeddings load(Path gguf, int contextSize, int threads) {
        if (!Files.isRegularFile(gguf)) {
            throw new ModelException(ModelFailure.notConfigured("embedding model file not found: " + gguf
                    + " (check gpupipe.worker.embedded.text-model-path)"));
        }
        LlamaText.privateNativeDirectory();
        long start = System.nanoTime();
        // a batch as large as the context: llama.cpp embeds an input in one batch, so no input may exceed it
        LlamaModel model = new LlamaModel(new ModelParameters().setModel(gguf.toString()).setCtxSize(contextSize)
                .setBatchSize(contextSize).setUbatchSize(contextSize).setThreads(threads).setParallel(1)
                .enableEmbedding().setPoolingType(PoolingType.LAST).disableLog());
        LlamaText.markNativeLoaded();
        LOG.infof("loaded embedding model %s in %d ms", gguf, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return new LlamaEmbeddings(model);
    }

    Embeddings embed(List<String> inputs, Duration timeout) {
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
            List<float[]> vectors = new ArrayList<>(inputs.size());
            int tokens = 0;
            for (String input : inputs) {
                if (System.nanoTime() > deadline) {
                    throw new ModelException(ModelFailure.timeout(timeout));
                }
                tokens += model.encode(input).length;
                vectors.add(model.embed(input));
            }
            return new Embeddings(vectors, tokens);
        } catch (ModelException e) {
            throw e;
        } catch (RuntimeException e) { // the library's LlamaException is not public
            throw new ModelException(ModelFailure.permanent("llama.cpp failed: " + e.getMessage()), e);
        } finally {
            lock.unlock();
        }
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
