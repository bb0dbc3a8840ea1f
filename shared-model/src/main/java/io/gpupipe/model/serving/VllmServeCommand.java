package io.gpupipe.model.serving;

import java.util.List;
import java.util.Objects;

/**
 * The arguments of {@code vllm serve} as the GPU side deploys them (the CDK task definition's model-server command)
 * and as the worker's tests start the vLLM stand-in, so both run the same contract.
 *
 * <p>{@code --scheduling-policy priority}: the worker forwards each job's {@code priority}, and vLLM rejects any
 * request with a non-zero priority unless the server runs the priority policy (vLLM's engine: {@code if priority != 0
 * and not self.scheduler_config.policy == "priority": raise ValueError(f"Got priority {priority} but Priority
 * scheduling is not enabled.")}, answered as HTTP 400 BadRequestError). vLLM's default policy is {@code fcfs}.
 */
public record VllmServeCommand(String servedModelName, int maxModelLen, int maxNumSeqs, int tensorParallelSize,
                               String host, int port) {
    public static final String SCHEDULING_POLICY = "priority";
    public static final String GPU_MEMORY_UTILIZATION = "0.90";

    public VllmServeCommand {
        Objects.requireNonNull(servedModelName, "servedModelName");
        Objects.requireNonNull(host, "host");
        if (maxModelLen < 1 || maxNumSeqs < 1 || tensorParallelSize < 1) {
            throw new IllegalArgumentException("maxModelLen, maxNumSeqs and tensorParallelSize must be >= 1");
        }
    }

    /**
     * vLLM's pooling runner, which serves {@code POST /v1/embeddings} (and no completions): "Run a model in pooling
     * mode via the option {@code --runner pooling}" (docs.vllm.ai, Models → Pooling Models → Configuration → Model
     * Runner; vLLM 0.10 and later, before which {@code --task embed} did it). vLLM detects the runner of most
     * embedding checkpoints itself ({@code --runner auto}); the flag makes the tier's API explicit.
     */
    public static final List<String> POOLING_RUNNER = List.of("--runner", "pooling");

    /** The arguments of an embedding tier's server: {@link #args()} and {@link #POOLING_RUNNER}. */
    public List<String> poolingArgs() {
        List<String> args = new java.util.ArrayList<>(args());
        args.addAll(POOLING_RUNNER);
        return List.copyOf(args);
    }

    /** The arguments after {@code vllm serve <model path>} (the image's entrypoint). */
    public List<String> args() {
        return List.of(
                "--served-model-name", servedModelName,
                "--max-model-len", Integer.toString(maxModelLen),
                "--max-num-seqs", Integer.toString(maxNumSeqs),
                "--tensor-parallel-size", Integer.toString(tensorParallelSize),
                "--gpu-memory-utilization", GPU_MEMORY_UTILIZATION,
                "--scheduling-policy", SCHEDULING_POLICY,
                "--host", host, "--port", Integer.toString(port));
    }
}
