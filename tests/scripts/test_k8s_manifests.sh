#!/bin/sh
# deploy/ (docs/kubernetes.md) renders offline with `kubectl kustomize`,
# and so does an overlay for a second lab (a name suffix, its own instance
# label, its own lab file in a generated Secret), the way the docs make
# more labs; tests/tools/check_k8s.py checks both renderings without a
# cluster: names, the StatefulSet's Service, selectors, ports against
# serve's arguments, one Service per switch port, the security context,
# and that the two labs side by side share no name and no pods.
# kubectl is Debian's kubernetes-client (1.20, whose kustomize is 2.0.3)
# or any newer one; MDSIM_KUBECTL names another binary.
# usage: test_k8s_manifests.sh MDSIM   (MDSIM unused: nothing runs here)
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../.."
kubectl=${MDSIM_KUBECTL:-kubectl}
command -v "$kubectl" > /dev/null ||
    { echo "SKIP: no kubectl (scripts/install-deps.sh installs kubernetes-client)"; exit 77; }
/usr/bin/python3 -c 'import yaml' 2> /dev/null ||
    { echo "SKIP: no python3-yaml for /usr/bin/python3 (scripts/install-deps.sh installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
echo "kubectl: $(command -v "$kubectl"), $("$kubectl" version --client 2>&1 | head -1)"

# A copy, so the overlay can name it relatively (kustomize 2.0.3 wants
# a relative directory under `bases:`). No cluster: no kubeconfig.
cp -r "$src/deploy" "$work/deploy"
export KUBECONFIG=/dev/null
"$kubectl" kustomize "$work/deploy" > "$work/one.yaml" 2> "$work/err" ||
    fail "kustomize deploy/: $(cat "$work/err")"

# A second lab, as docs/kubernetes.md writes it, with its own lab file
# and MDS1's SSH reachable from outside. `bases:` is what 2.0.3
# reads (newer ones warn that it is deprecated, and read it).
mkdir "$work/class2"
cp "$src/examples/labs/san-extension.lab" "$work/class2/class2.lab"
cat > "$work/class2/kustomization.yaml" << 'EOF'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
bases:
  - ../deploy
nameSuffix: -class2
commonLabels:
  app.kubernetes.io/instance: class2
secretGenerator:
  - name: mdsim-lab
    files:
      - lab=class2.lab
patchesStrategicMerge:
  - external.yaml
EOF
cat > "$work/class2/external.yaml" << 'EOF'
apiVersion: v1
kind: Service
metadata:
  name: mdsim-mds1-ssh
spec:
  type: LoadBalancer
EOF
"$kubectl" kustomize "$work/class2" > "$work/two.yaml" 2> "$work/err" ||
    fail "kustomize an overlay: $(cat "$work/err")"
grep -q '^  name: mdsim-class2$' "$work/two.yaml" || fail "the overlay's names have no suffix"
grep -q 'type: LoadBalancer' "$work/two.yaml" || fail "the overlay's patch did not apply"
# Each lab alone, and both as applied side by side in one namespace.
/usr/bin/python3 "$here/../tools/check_k8s.py" --containerfile "$src/deploy/Containerfile" \
    "$work/one.yaml" "$work/two.yaml" || fails=$((fails + 1))

[ $fails = 0 ] || exit 1
echo "PASS"
