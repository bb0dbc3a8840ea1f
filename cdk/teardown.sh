#!/usr/bin/env bash
# Deletes a gpupipe deployment: the CDK stacks <stack>-monitoring, <stack>-gpu, <stack>-registry, <stack>-network and
# the SAM stack <stack>, then what they retain on purpose so that no stack deletion loses data: the results bucket
# (versioned: every object version and delete marker is removed first), the two ECR repositories with their images,
# the tiers' log groups, Container Insights' log group of the cluster, and the worker image tag's SSM parameter.
# It lists everything first and asks for the stack name before deleting anything (or --yes).
#
#   cdk/teardown.sh [--stack NAME] [--region REGION] [--config-env ENV] [--dry-run] [--yes]
#
# --stack and --region default to samconfig.toml's stack_name and region of --config-env (default: default), the
# values the deployment used. --dry-run prints the AWS CLI commands that would change anything and runs none of them.
# Needs the AWS CLI v2 with credentials for the account.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
samconfig="${here}/../samconfig.toml"
stack="" region="" config_env="default" dry_run=false assume_yes=false

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --stack) stack="${2:?--stack needs a name}"; shift 2 ;;
        --region) region="${2:?--region needs a region}"; shift 2 ;;
        --config-env) config_env="${2:?--config-env needs a name}"; shift 2 ;;
        --dry-run) dry_run=true; shift ;;
        --yes) assume_yes=true; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "teardown.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

# key = "value" of the first [<config_env>.<command>.parameters] table that has it, as the SAM CLI reads it
samconfig_value() {
    [[ -f "$samconfig" ]] || return 0
    awk -v env="$config_env" -v key="$1" '
        /^\[/ { table = $0; gsub(/[\[\] ]/, "", table); next }
        index(table, env ".") == 1 && $1 == key && $2 == "=" { gsub(/"/, "", $3); print $3; exit }
    ' "$samconfig"
}
stack="${stack:-$(samconfig_value stack_name)}"
region="${region:-$(samconfig_value region)}"
if [[ -z "$stack" || -z "$region" ]]; then
    echo "teardown.sh: no stack name or region (give --stack and --region, or a --config-env of samconfig.toml)" >&2
    exit 2
fi

aws_read() {
    aws --region "$region" "$@"
}
# every call that changes something goes through here, so --dry-run runs none of them (their answers are not shown)
aws_change() {
    if $dry_run; then
        echo "dry-run: aws --region $region $*"
    else
        aws --region "$region" "$@" >/dev/null
    fi
}

stack_exists() {
    aws_read cloudformation describe-stacks --stack-name "$1" >/dev/null 2>&1
}
output() {
    aws_read cloudformation describe-stacks --stack-name "$1" \
        --query "Stacks[0].Outputs[?OutputKey=='$2'].OutputValue" --output text 2>/dev/null | grep -v '^None$' || true
}
log_groups_of() {
    aws_read cloudformation list-stack-resources --stack-name "$1" \
        --query "StackResourceSummaries[?ResourceType=='AWS::Logs::LogGroup'].PhysicalResourceId" --output text \
        2>/dev/null | tr '\t' '\n' | grep -v '^None$' | grep -v '^$' || true
}

# -- what is there (read only)
cdk_stacks=("$stack-monitoring" "$stack-gpu" "$stack-registry" "$stack-network")
present=()
for s in "${cdk_stacks[@]}" "$stack"; do
    if stack_exists "$s"; then
        present+=("$s")
    fi
done
bucket="$(output "$stack" ResultsBucketName)"
cluster="$(output "$stack" ClusterName)"
repositories=()
for key in WorkerRepositoryUri ModelServerRepositoryUri; do
    uri="$(output "$stack-registry" "$key")"
    if [[ -n "$uri" ]]; then
        repositories+=("${uri#*/}")
    fi
done
mapfile -t log_groups < <(log_groups_of "$stack-gpu")
if [[ -n "$cluster" ]]; then
    log_groups+=("/aws/ecs/containerinsights/$cluster/performance")
fi
parameter="/gpupipe/$stack/worker-image-tag"

echo "gpupipe teardown of '$stack' in $region:"
echo "  stacks to delete, in this order: ${present[*]:-(none found)}"
echo "  results bucket, every version:   ${bucket:-(none found)}"
echo "  ECR repositories with images:    ${repositories[*]:-(none found)}"
echo "  log groups:                      ${log_groups[*]:-(none found)}"
echo "  SSM parameter:                   $parameter"
if [[ ${#present[@]} -eq 0 && -z "$bucket" && ${#repositories[@]} -eq 0 ]]; then
    echo "nothing of '$stack' found in $region"
fi

if ! $assume_yes && ! $dry_run; then
    echo "This deletes every result, image and log above for good."
    read -r -p "Type the stack name ($stack) to go on: " answer || answer=""
    if [[ "$answer" != "$stack" ]]; then
        echo "teardown.sh: not confirmed, nothing deleted" >&2
        exit 1
    fi
fi

# -- the stacks, GPU side first (it imports the SAM stack's exports)
delete_stack() {
    aws_change cloudformation delete-stack --stack-name "$1"
    aws_change cloudformation wait stack-delete-complete --stack-name "$1"
}
for s in "${present[@]}"; do
    echo "deleting stack $s"
    delete_stack "$s"
done

# -- what the stacks retained
empty_bucket() {
    local kind count
    while :; do
        count=0
        for kind in Versions DeleteMarkers; do
            batch="$(aws_read s3api list-object-versions --bucket "$1" --max-items 1000 --output json \
                --query "{Objects: $kind[].{Key: Key, VersionId: VersionId}, Quiet: \`true\`}")"
            if [[ "$batch" == *'"Key"'* ]]; then
                count=$((count + 1))
                aws_change s3api delete-objects --bucket "$1" --delete "$batch"
            fi
        done
        if [[ $count -eq 0 ]] || $dry_run; then
            break
        fi
    done
}
if [[ -n "$bucket" ]]; then
    echo "emptying and deleting bucket $bucket"
    empty_bucket "$bucket"
    aws_change s3api delete-bucket --bucket "$bucket"
fi
for repository in "${repositories[@]}"; do
    echo "deleting repository $repository"
    aws_change ecr delete-repository --repository-name "$repository" --force
done
for group in "${log_groups[@]}"; do
    if aws_read logs describe-log-groups --log-group-name-prefix "$group" --query 'logGroups[].logGroupName' \
        --output text 2>/dev/null | tr '\t' '\n' | grep -qx -- "$group"; then
        echo "deleting log group $group"
        aws_change logs delete-log-group --log-group-name "$group"
    fi
done
if aws_read ssm get-parameter --name "$parameter" >/dev/null 2>&1; then
    echo "deleting SSM parameter $parameter"
    aws_change ssm delete-parameter --name "$parameter"
fi
echo "teardown of '$stack' in $region: done$($dry_run && echo ' (dry run: nothing changed)' || true)"
