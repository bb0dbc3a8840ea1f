# Sourced by build.sh and stage-weights.sh: sets $engine to CONTAINER_ENGINE, or the first of docker and podman whose
# daemon answers, or to "" when there is none (the caller says what it needed one for).
engine="${CONTAINER_ENGINE:-}"
if [[ -z "$engine" ]]; then
    for candidate in docker podman; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" info >/dev/null 2>&1; then
            engine="$candidate"
            break
        fi
    done
fi
