#!/usr/bin/env bash
# Tests native-build/build.sh's model-image path with stub `docker` and `aws` commands (no engine, no AWS):
#   1. a model revision that is not a 40-hex commit is refused before anything is built;
#   2. an image whose tag the registry already holds is neither rebuilt nor pushed (immutable ECR tags: a re-run
#      of a deployment must not fail at the push);
#   3. a new tag is built, tagged and pushed;
#   4. --weights s3 builds the image without weights (Dockerfile target lean) under the tag <IMAGE_TAG>-lean;
# and native-build/stage-weights.sh (weights in S3 for a model server that streams them):
#   5. a revision that is not a commit is refused before anything runs;
#   6. a prefix whose manifest exists is not uploaded again;
#   7. otherwise the weights go to s3://<bucket>/models/<repo>/<revision>/ with SHA-256 checksums, manifest last.
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
case "$1 $2" in
    "ecr describe-images") [[ "$*" == *"imageTag=$EXISTING_TAG"* ]] ;;
    "s3api head-object") [[ "$*" == *"--key ${EXISTING_KEY:-none}"* ]] ;;
    *) true ;;
esac
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
: > "$CALLS"
(cd "$root" && EXISTING_TAG=none bash native-build/build.sh --no-functions --model t --weights s3 \
    --push registry.example >"$work/out" 2>&1) || fail "--weights s3 failed"
grep -q "^docker build .*--target lean" "$CALLS" || fail "the lean image was not built from target lean"
grep -q "^docker push registry.example/gpupipe/model-server:t-1-lean" "$CALLS" || fail "no push of the -lean tag"

stage() {
    : > "$CALLS"
    (cd "$root" && bash native-build/stage-weights.sh t weights-bucket >"$work/out" 2>&1)
}
model_env main t-1
EXISTING_KEY=none stage && fail "stage-weights.sh accepted a branch name as MODEL_REVISION"
grep -q "MODEL_REVISION must be the 40-hex commit" "$work/out" || fail "no readable message for main"
grep -q "^docker run" "$CALLS" && fail "downloaded despite an unpinned revision"

model_env 0123456789abcdef0123456789abcdef01234567 t-1
prefix="models/example/model/0123456789abcdef0123456789abcdef01234567/"
EXISTING_KEY="${prefix}gpupipe-manifest.sha256" stage || fail "re-staging staged weights failed"
grep -q "^docker run\|^aws s3 cp" "$CALLS" && fail "downloaded or uploaded weights already staged"

EXISTING_KEY=none stage || fail "staging failed"
grep -q "^docker run .*MODEL_REVISION=0123456789abcdef0123456789abcdef01234567" "$CALLS" || fail "no download"
grep -q "^aws s3 cp --recursive .*--checksum-algorithm SHA256 .* s3://weights-bucket/$prefix\$" "$CALLS" \
    || fail "weights not uploaded with SHA-256 checksums to the commit's prefix"
tail -1 "$CALLS" | grep -q "s3://weights-bucket/${prefix}gpupipe-manifest.sha256" || fail "manifest not uploaded last"
echo "build-push-test: 7 cases passed"
