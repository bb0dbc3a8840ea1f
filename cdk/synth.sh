#!/usr/bin/env bash
# Synthesizes the CDK app offline (no CDK CLI, no AWS credentials) into $1 (default cdk/target/cdk.out) and lints
# every template with cfn-lint unless --no-lint. Needs the module built: ./mvnw -B -pl cdk -am package -DskipTests (or verify).
# Extra context: CDK_CONTEXT_JSON='{"samStackName":"gpupipe-prod"}' cdk/synth.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${here}/target/cdk.out"
lint=true
for arg in "$@"; do
    case "$arg" in
        --no-lint) lint=false ;;
        *) out="$arg" ;;
    esac
done
if [[ ! -f "${here}/target/classpath.txt" || ! -d "${here}/target/classes" ]]; then
    echo "synth.sh: build the module first: ./mvnw -B -pl cdk -am package -DskipTests" >&2
    exit 2
fi
rm -rf "$out"
mkdir -p "$out"
export CDK_OUTDIR="$out"
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="${JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION:-20}"
java -cp "${here}/target/classes:$(cat "${here}/target/classpath.txt")" io.gpupipe.cdk.GpupipeApp
templates=("$out"/*.template.json)
echo "synthesized ${#templates[@]} templates into $out"
if $lint; then
    cfn-lint "${templates[@]}"
    echo "cfn-lint: no errors in ${#templates[@]} CDK templates"
fi
