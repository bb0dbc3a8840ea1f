#!/usr/bin/env bash
# Builds gpupipe's deployable artifacts where a container engine (Docker or Podman) exists. Dev machines without
# one use the JVM path instead: ./mvnw -B package -DskipTests, then sam deploy with FunctionPackage=jvm.
#
#   native-build/build.sh                      # the six Lambda functions, native (bootstrap in function.zip)
#   native-build/build.sh --worker native      # + the gpu-worker image, native executable
#   native-build/build.sh --worker jvm         # + the gpu-worker image, JVM (fast-jar)
#   native-build/build.sh --model small        # + the small tier's model-server image (weights baked in)
#   native-build/build.sh --model large --weights s3   # + its image without weights (tag <IMAGE_TAG>-lean); stage
#                                              # the weights with native-build/stage-weights.sh large <bucket>
#   native-build/build.sh --no-functions --worker jvm --push 123456789012.dkr.ecr.us-east-1.amazonaws.com
#
# Output (what sam build / sam deploy and the CDK app use):
#   functions/<name>/target/function.zip   native: contains `bootstrap` (sam-template.yaml, FunctionPackage=native)
#   image gpupipe/gpu-worker:<tag>         push to the RegistryStack's WorkerRepositoryUri, CDK -c workerImageTag
#   image gpupipe/model-server:<tier tag>  push to ModelServerRepositoryUri, CDK -c <tier>ModelImageTag
#   image gpupipe/model-server:<tier tag>-lean  (--weights s3) CDK -c <tier>Weights=s3
#
# The ECR repositories keep tags immutable, so --push skips an image whose tag the repository already holds (a
# re-run of a deployment pushes nothing twice; a model image with an existing tag is not even rebuilt). Tags must
# therefore change with the content: the worker's is the commit, a model image's is IMAGE_TAG in its .env file.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# The Mandrel builder of Quarkus 3.33.2 (its default, quarkus.native.builder-image=mandrel). Pin a digest for
# reproducible builds: MANDREL_IMAGE=quay.io/quarkus/ubi9-quarkus-mandrel-builder-image@sha256:<digest>
MANDREL_IMAGE="${MANDREL_IMAGE:-quay.io/quarkus/ubi9-quarkus-mandrel-builder-image:jdk-25}"
FUNCTIONS=(router scaling-metric result-notifier repair-logger dead-letter batch)
TAG="${TAG:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo dev)}"
MODELS_DIR="${MODELS_DIR:-native-build/models}"

build_functions=true
worker=""
models=()
push=""
weights=image
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-functions) build_functions=false ;;
        --worker) worker="$2"; shift ;;
        --model) models+=("$2"); shift ;;
        --push) push="$2"; shift ;;
        --weights) weights="$2"; shift ;;
        --tag) TAG="$2"; shift ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "build.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

# True when repository $1 of the push registry already holds tag $2 (immutable tags: pushing again would fail).
image_exists() {
    [[ -n "$push" ]] && aws ecr describe-images --repository-name "$1" --image-ids "imageTag=$2" \
        --query 'imageDetails[0].imageDigest' --output text >/dev/null 2>&1
}

# Reads a tier's model env file and refuses a revision that is not a commit (branches move; seed 003).
load_model() {
    # shellcheck source=/dev/null
    source "$MODELS_DIR/$1.env"
    if [[ ! "${MODEL_REVISION:-}" =~ ^[0-9a-f]{40}$ ]]; then
        echo "build.sh: $MODELS_DIR/$1.env: MODEL_REVISION must be the 40-hex commit of $MODEL_REPO to bake in," \
            "got '${MODEL_REVISION:-}'" >&2
        exit 5
    fi
}

case "$weights" in
    image) lean_suffix=""; target=() ;;
    # the image without weights (Dockerfile target lean); the tag must differ from the baked one (immutable tags)
    s3) lean_suffix="-lean"; target=(--target lean) ;;
    *) echo "build.sh: --weights takes image or s3, got '$weights'" >&2; exit 2 ;;
esac

for tier in "${models[@]}"; do
    load_model "$tier"
done

# shellcheck source=native-build/container-engine.sh
source "$root/native-build/container-engine.sh"
if [[ -z "$engine" ]]; then
    cat >&2 <<'MSG'
build.sh: no working container engine (Docker or Podman). Native builds run in the Mandrel builder container and
images need an engine too. Without one, deploy the JVM package instead:
    ./mvnw -B -ntp package -DskipTests && sam build && sam deploy --parameter-overrides FunctionPackage=jvm
MSG
    exit 3
fi
echo "build.sh: container engine $engine, builder $MANDREL_IMAGE, tag $TAG"

native_flags=(-Dquarkus.native.enabled=true -Dquarkus.native.container-build=true
    "-Dquarkus.native.container-runtime=$engine" "-Dquarkus.native.builder-image=$MANDREL_IMAGE")

if $build_functions; then
    modules=$(printf 'functions/%s,' "${FUNCTIONS[@]}")
    # -am builds the modules they depend on in the same reactor: nothing is installed into ~/.m2
    ./mvnw -B -ntp -pl "${modules%,}" -am package -DskipTests "${native_flags[@]}"
    for fn in "${FUNCTIONS[@]}"; do
        zip="functions/$fn/target/function.zip"
        if ! unzip -l "$zip" | grep -q ' bootstrap$'; then
            echo "build.sh: $zip has no bootstrap: the native build did not produce a custom-runtime package" >&2
            exit 4
        fi
        echo "native $zip: $(du -h "$zip" | cut -f1)"
    done
    echo "deploy with: sam build && sam deploy --parameter-overrides FunctionPackage=native (or --config-env prod)"
fi

case "$worker" in
    "") ;;
    native)
        ./mvnw -B -ntp -pl gpu-worker -am package -DskipTests "${native_flags[@]}"
        "$engine" build -f native-build/Dockerfile.worker-native -t "gpupipe/gpu-worker:$TAG" .
        ;;
    jvm)
        ./mvnw -B -ntp -pl gpu-worker -am package -DskipTests
        "$engine" build -f native-build/Dockerfile.worker-jvm -t "gpupipe/gpu-worker:$TAG" .
        ;;
    *) echo "build.sh: --worker takes native or jvm" >&2; exit 2 ;;
esac

pushed_models=()
for tier in "${models[@]}"; do
    load_model "$tier"
    IMAGE_TAG="$IMAGE_TAG$lean_suffix"
    if image_exists "${MODEL_REPOSITORY:-}" "$IMAGE_TAG"; then
        echo "build.sh: $MODEL_REPOSITORY:$IMAGE_TAG is already in the registry: not rebuilt, not pushed"
        continue
    fi
    "$engine" build -f native-build/Dockerfile.model-server "${target[@]}" \
        --build-arg "VLLM_IMAGE=$VLLM_IMAGE" \
        --build-arg "MODEL_REPO=$MODEL_REPO" \
        --build-arg "MODEL_REVISION=$MODEL_REVISION" \
        ${HF_TOKEN_FILE:+--secret "id=hf_token,src=$HF_TOKEN_FILE"} \
        -t "gpupipe/model-server:$IMAGE_TAG" native-build
    pushed_models+=("$tier")
done

if [[ -n "$push" ]]; then
    # push: the RegistryStack repository URIs (aws ecr get-login-password ... | $engine login ... first)
    if [[ -n "$worker" ]]; then
        if image_exists "${WORKER_REPOSITORY:?set WORKER_REPOSITORY}" "$TAG"; then
            echo "build.sh: $WORKER_REPOSITORY:$TAG is already in the registry: not pushed"
        else
            "$engine" tag "gpupipe/gpu-worker:$TAG" "$push/$WORKER_REPOSITORY:$TAG"
            "$engine" push "$push/$WORKER_REPOSITORY:$TAG"
        fi
    fi
    for tier in "${pushed_models[@]}"; do
        load_model "$tier"
        IMAGE_TAG="$IMAGE_TAG$lean_suffix"
        "$engine" tag "gpupipe/model-server:$IMAGE_TAG" "$push/${MODEL_REPOSITORY:?set MODEL_REPOSITORY}:$IMAGE_TAG"
        "$engine" push "$push/$MODEL_REPOSITORY:$IMAGE_TAG"
    done
fi
