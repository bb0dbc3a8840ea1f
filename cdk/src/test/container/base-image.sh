#!/usr/bin/env bash
# Builds localhost/gpupipe-base:test, the base image of the container test (cdk TaskDefinitionInPodmanTest): Debian
# bookworm from Debian's packages (debootstrap from the machine's own apt mirror; no image registry is reachable
# here) with a JRE 17, curl (the worker container's health check) and python3 (the model server's health check, as
# in the vLLM image), plus /opt/jboss/container/java/run/run-java.sh, a stand-in for the entry script of the ubi9
# OpenJDK runtime image that native-build/Dockerfile.worker-jvm starts from. Idempotent: returns at once when the image
# exists. Needs root, podman, runc and debootstrap (apt-get install -y podman runc debootstrap).
#   CONTAINERS_CONF=cdk/src/test/container/containers.conf bash cdk/src/test/container/base-image.sh
set -euo pipefail
IMAGE="${GPUPIPE_BASE_IMAGE:-localhost/gpupipe-base:test}"
: "${CONTAINERS_CONF:=$(cd "$(dirname "$0")" && pwd)/containers.conf}"
export CONTAINERS_CONF

if podman image exists "$IMAGE"; then
    echo "base image $IMAGE exists"
    exit 0
fi

# The Debian mirror apt uses here (first non-security bookworm source, one-line or deb822 format).
mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | sed -e 's/\[[^]]*\]//' | awk '$1 == "deb" { print $2 } $1 == "URIs:" { print $2 }' \
    | grep -v -e security -e updates | grep -E '/debian/?$' | head -n 1 || true)"
if [ -z "$mirror" ]; then
    echo "no Debian mirror found in /etc/apt/sources.list*: cannot debootstrap the base image" >&2
    exit 1
fi

rootfs="$(mktemp -d "${TMPDIR:-/tmp}/gpupipe-base.XXXXXX")"
trap 'rm -rf "$rootfs"' EXIT
started=$(date +%s)
debootstrap --variant=minbase --include=openjdk-17-jre-headless,curl,python3 bookworm "$rootfs" "$mirror" \
    > "$rootfs.log" 2>&1 || { tail -n 20 "$rootfs.log" >&2; exit 1; }
rm -f "$rootfs.log"
rm -rf "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*
mkdir -p "$rootfs/opt/jboss/container/java/run"
cat > "$rootfs/opt/jboss/container/java/run/run-java.sh" <<'SHIM'
#!/bin/sh
# Stand-in for the ubi9 OpenJDK runtime image's run-java.sh: exec (so SIGTERM reaches the JVM) java with
# JAVA_OPTS_APPEND and JAVA_APP_JAR, as Dockerfile.worker-jvm sets them.
exec java ${JAVA_OPTS:-} ${JAVA_OPTS_APPEND:-} -jar "${JAVA_APP_JAR:?JAVA_APP_JAR is not set}" "$@"
SHIM
chmod 755 "$rootfs/opt/jboss/container/java/run/run-java.sh"
debootstrapped=$(date +%s)
tar -C "$rootfs" -c . | podman import --change 'CMD ["/bin/sh"]' - "$IMAGE" > /dev/null
echo "base image $IMAGE built: debootstrap $((debootstrapped - started)) s, import $(($(date +%s) - debootstrapped)) s"
