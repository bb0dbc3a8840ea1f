package io.gpupipe.worker.backend.openai;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The OpenAI-compatible HTTP API of the model server (vLLM, vLLM-Omni, TGI, llama.cpp server). Base URL:
 * {@code quarkus.rest-client.vllm.url}. {@code authorization} is {@code Bearer <key>} or null (no header).
 */
@RegisterRestClient(configKey = "vllm")
@Path("")
public interface VllmClient {

    @POST
    @Path("/v1/completions")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    Uni<VllmDtos.CompletionResponse> completions(@HeaderParam("Authorization") String authorization,
                                                 VllmDtos.CompletionRequest request);

    @POST
    @Path("/v1/chat/completions")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    Uni<VllmDtos.ChatCompletionResponse> chatCompletions(@HeaderParam("Authorization") String authorization,
                                                         VllmDtos.ChatCompletionRequest request);

    @POST
    @Path("/v1/embeddings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    Uni<VllmDtos.EmbeddingResponse> embeddings(@HeaderParam("Authorization") String authorization,
                                               VllmDtos.EmbeddingRequest request);

    @POST
    @Path("/v1/audio/speech")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({"audio/wav", "audio/x-wav", MediaType.APPLICATION_OCTET_STREAM})
    Uni<byte[]> speech(@HeaderParam("Authorization") String authorization, VllmDtos.SpeechRequest request);

    @GET
    @Path("/health")
    @Produces(MediaType.WILDCARD)
    Uni<String> health(@HeaderParam("Authorization") String authorization);

    @GET
    @Path("/v1/models")
    @Produces(MediaType.APPLICATION_JSON)
    Uni<VllmDtos.ModelList> models(@HeaderParam("Authorization") String authorization);

    @GET
    @Path("/metrics")
    @Produces(MediaType.TEXT_PLAIN)
    Uni<String> metrics(@HeaderParam("Authorization") String authorization);
}
