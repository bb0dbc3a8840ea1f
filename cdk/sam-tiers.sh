#!/usr/bin/env bash
# Rewrites sam-template.yaml's per-tier blocks (# BEGIN tiers/... to # END tiers/...) from shared-model's tiers.json.
# Run it after adding, removing or changing a tier; SamTemplateTiersTest fails with the difference until you do.
# Needs the module built: ./mvnw -B -pl cdk -am package -DskipTests (or verify).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ ! -f "${here}/target/classpath.txt" || ! -d "${here}/target/classes" ]]; then
    echo "sam-tiers.sh: build the module first: ./mvnw -B -pl cdk -am package -DskipTests" >&2
    exit 2
fi
java -cp "${here}/target/classes:$(cat "${here}/target/classpath.txt")" io.gpupipe.cdk.SamTierBlocks \
    "${1:-${here}/../sam-template.yaml}"
