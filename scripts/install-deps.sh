#!/bin/sh
# Installs the Debian packages mdsim needs to build and test, when missing.
set -e
# Build: compilers, cmake, the libraries (README "Dependencies"). Tests:
# openssh-client and sshpass (SSH sessions), tmux (the console on a real
# terminal), sqlite3 (foreign and busy lab files), time (bench/), ansible
# with paramiko and netmiko (automation clients against `mdsim serve`),
# libclang-rt-14-dev (libFuzzer: tests/fuzz, test_fuzz_smoke.sh), expect
# and telnet (a real telnet client logs in to a class: test_class.sh).
# Packaging (docs/packaging.md, test_deb.sh): scdoc (the man pages),
# dpkg-dev (dpkg-shlibdeps, dpkg-buildflags) and file (CPack's ELF
# detection) build the .deb, lintian checks it; git gives the commit
# `mdsim --version` names. No fakeroot: CPack makes root the owner itself.
PKGS="cmake make gcc clang pkg-config libsqlite3-dev check libssh-dev libcrypt-dev zlib1g-dev libpcre2-dev
 openssh-client sshpass tmux sqlite3 time coreutils ansible python3-paramiko python3-netmiko libclang-rt-14-dev
 expect telnet scdoc dpkg-dev file lintian git"
# Deployment (docs/systemd.md, docs/kubernetes.md): systemd for
# systemd-analyze (verify, security) and systemd-sysusers, with libseccomp
# for the unit's sandbox (test_systemd_unit.sh); python3-yaml and
# kubernetes-client, whose `kubectl kustomize` renders deploy/
# (test_k8s_manifests.sh). kubernetes-client only when there is no kubectl:
# another package's /usr/bin/kubectl (the Google Cloud SDK's) would make
# its installation fail, and any kubectl renders deploy/.
PKGS="$PKGS systemd python3-yaml"
# tshark decodes `mdsim replay --pcap` captures (test_pcap.sh); its
# debconf question (may non-root users capture?) is answered no before
# the installation, so it asks nothing.
PKGS="$PKGS tshark"
# serve --http (docs/http.md): Debian's civetweb builds mdsim_http.so;
# headless Chromium, its driver and Debian's selenium (for /usr/bin/python3)
# drive the page in test_http.sh.
PKGS="$PKGS libcivetweb-dev chromium chromium-driver python3-selenium"
command -v kubectl > /dev/null || PKGS="$PKGS kubernetes-client"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "mdsim: installing Debian packages:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections 2> /dev/null || true
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
