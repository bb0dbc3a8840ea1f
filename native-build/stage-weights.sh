#!/usr/bin/env bash
# Stages a tier's weights in S3 for a model server that streams them at start (CDK -c <tier>Weights=s3, vLLM
# --load-format runai_streamer; docs/cold-start.md), instead of baking them into its image:
#
#   native-build/stage-weights.sh large my-weights-bucket      # then: cdk deploy -c largeWeights=s3 \
#                                                              #   -c modelWeightsBucket=my-weights-bucket
#
# 1. Downloads MODEL_REPO at MODEL_REVISION (native-build/models/<tier>.env; a 40-hex commit, nothing else) inside
#    the tier's vLLM image, with the same file patterns the baked image uses.
# 2. Verifies every file against the Hugging Face Hub's own metadata of that commit: the SHA-256 of each LFS file
#    (the weights), the git blob id of the others; a mismatch stops here, nothing is uploaded.
# 3. Uploads to s3://<bucket>/models/<MODEL_REPO>/<MODEL_REVISION>/ (shared-model ModelVersion.stagedPrefix: the
#    prefix the CDK task reads and grants), every object with an S3 SHA-256 checksum (S3 verifies it on receipt),
#    and gpupipe-manifest.sha256 last: its presence marks a complete copy, and a re-run that finds it uploads
#    nothing (the prefix names the commit, so its content never changes).
# Needs a container engine (docker or podman) and the AWS CLI; a private model needs HF_TOKEN_FILE.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
MODELS_DIR="${MODELS_DIR:-$root/native-build/models}"
MANIFEST=gpupipe-manifest.sha256

if [[ $# -ne 2 ]]; then
    sed -n '2,17p' "$0" >&2
    exit 2
fi
tier="$1"
bucket="$2"
# shellcheck source=/dev/null
source "$MODELS_DIR/$tier.env"
if [[ ! "${MODEL_REVISION:-}" =~ ^[0-9a-f]{40}$ ]]; then
    echo "stage-weights.sh: $MODELS_DIR/$tier.env: MODEL_REVISION must be the 40-hex commit of $MODEL_REPO to" \
        "stage, got '${MODEL_REVISION:-}'" >&2
    exit 5
fi
prefix="models/$MODEL_REPO/$MODEL_REVISION/"
target="s3://$bucket/$prefix"

if aws s3api head-object --bucket "$bucket" --key "$prefix$MANIFEST" >/dev/null 2>&1; then
    echo "stage-weights.sh: $target$MANIFEST exists: the weights of $MODEL_REPO@$MODEL_REVISION are staged"
    exit 0
fi

# shellcheck source=native-build/container-engine.sh
source "$root/native-build/container-engine.sh"
if [[ -z "$engine" ]]; then
    echo "stage-weights.sh: no working container engine (Docker or Podman): the download runs in $VLLM_IMAGE" >&2
    exit 3
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
token_args=()
if [[ -n "${HF_TOKEN_FILE:-}" ]]; then
    token_args=(-v "$HF_TOKEN_FILE:/run/secrets/hf_token:ro")
fi
# Download and verify inside the vLLM image (it has huggingface_hub); the manifest lists what was verified.
"$engine" run --rm "${token_args[@]}" -v "$work:/out" -e "MODEL_REPO=$MODEL_REPO" \
    -e "MODEL_REVISION=$MODEL_REVISION" --entrypoint python3 "$VLLM_IMAGE" -c '
import hashlib, os, sys
from huggingface_hub import HfApi, snapshot_download
repo, rev = os.environ["MODEL_REPO"], os.environ["MODEL_REVISION"]
token = open("/run/secrets/hf_token").read().strip() if os.path.exists("/run/secrets/hf_token") else None
patterns = ["*.json", "*.safetensors", "*.model", "*.txt", "*.py"]
path = snapshot_download(repo_id=repo, revision=rev, local_dir="/out/model", token=token, allow_patterns=patterns)
info = HfApi().model_info(repo, revision=rev, files_metadata=True, token=token)
if info.sha != rev:
    sys.exit(f"the Hub resolved {rev} to {info.sha}")
expected = {s.rfilename: s for s in info.siblings}
lines = []
for dirpath, _, files in os.walk(path):
    for name in sorted(files):
        full = os.path.join(dirpath, name)
        rel = os.path.relpath(full, path)
        if rel.startswith(".cache"):
            continue
        digest = hashlib.sha256()
        with open(full, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 24), b""):
                digest.update(chunk)
        sha256 = digest.hexdigest()
        meta = expected.get(rel)
        if meta is None:
            sys.exit(f"{rel}: not in {repo}@{rev}")
        if meta.lfs is not None:
            if meta.lfs.sha256 != sha256:
                sys.exit(f"{rel}: SHA-256 {sha256}, the Hub says {meta.lfs.sha256}")
        else:
            data = open(full, "rb").read()
            if meta.blob_id != hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest():
                sys.exit(f"{rel}: git blob id differs from the Hub: {meta.blob_id}")
        lines.append(f"{sha256}  {rel}")
open("/out/manifest", "w").write("\n".join(lines) + "\n")
print(f"verified {len(lines)} files of {repo}@{rev}")
'
rm -rf "$work/model/.cache"
aws s3 cp --recursive --only-show-errors --checksum-algorithm SHA256 "$work/model/" "$target"
aws s3 cp --only-show-errors --checksum-algorithm SHA256 "$work/manifest" "$target$MANIFEST"
echo "stage-weights.sh: staged $MODEL_REPO@$MODEL_REVISION at $target (deploy with -c ${tier}Weights=s3" \
    "-c modelWeightsBucket=$bucket and the image built by build.sh --model $tier --weights s3)"
