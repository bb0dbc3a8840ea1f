#!/usr/bin/env bash
# Tests native-build/build.sh's model-image path with stub `docker` and `aws` commands (no engine, no AWS):
#   1. a model revision that is not a 40-hex commit is refused before anything is built;
#   2. an image whose tag the registry already holds is neither rebuilt nor pushed (immutable ECR tags: a re-run
#      of a deployment must not fail at the push);
#   3. a new tag is built, tagged and pushed.
# Run: bash native-build/test/build-push-test.sh   (CI: .ci/run)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/models"
cat > "$work/bin/docker" <<'STUB'
#!/usr/bin/env bash
echo "docker $*" >> "$CALLS"
STUB
cat > "$work/bin/aws" <<'STUB'
#!/usr/bin/env bash
echo "aws $*" >> "$CALLS"
[[ "$*" == *"imageTag=$EXISTING_TAG"* ]]
STUB
chmod +x "$work/bin/docker" "$work/bin/aws"
export PATH="$work/bin:$PATH" CALLS="$work/calls" MODELS_DIR="$work/models" CONTAINER_ENGINE=docker
export MODEL_REPOSITORY=gpupipe/model-server

model_env() {
    printf 'VLLM_IMAGE=vllm/vllm-openai:v0.26.0\nMODEL_REPO=example/model\nMODEL_REVISION=%s\nIMAGE_TAG=%s\n' \
        "$1" "$2" > "$work/models/t.env"
}
run() {
    : > "$CALLS"
    (cd "$root" && bash native-build/build.sh --no-functions --model t --push registry.example >"$work/out" 2>&1)
}
fail() {
    echo "FAIL: $1"; echo "--- output"; cat "$work/out"; echo "--- calls"; cat "$CALLS"; exit 1
}

model_env main t-1
EXISTING_TAG=none run && fail "a branch name as MODEL_REVISION was accepted"
grep -q "MODEL_REVISION must be the 40-hex commit" "$work/out" || fail "no readable message for MODEL_REVISION=main"
grep -q "^docker build" "$CALLS" && fail "built despite an unpinned revision"

model_env 0123456789abcdef0123456789abcdef01234567 t-1
EXISTING_TAG=t-1 run || fail "re-run with an existing tag failed"
grep -q "^docker build\|^docker push" "$CALLS" && fail "rebuilt or pushed a tag the registry already holds"
grep -q "already in the registry" "$work/out" || fail "did not say why it skipped"

EXISTING_TAG=none run || fail "first push failed"
grep -q "^docker build .*MODEL_REVISION=0123456789abcdef0123456789abcdef01234567" "$CALLS" || fail "no build"
grep -q "^docker push registry.example/gpupipe/model-server:t-1" "$CALLS" || fail "no push of the new tag"
echo "build-push-test: 3 cases passed"
