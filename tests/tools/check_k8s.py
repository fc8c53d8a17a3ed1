"""Checks a rendering of deploy/ (`kubectl kustomize`) offline, without a
cluster: what a server would refuse or what would run but not work (a
Service selecting no pod, a port nothing listens on), and the security
context docs/kubernetes.md promises. Prints one line per problem; exit 1
if any.

usage: /usr/bin/python3 check_k8s.py [--containerfile FILE] RENDERED.yaml...
(each a rendering of one kustomization; several are checked as applied
side by side in one namespace)
"""
import re
import sys

import yaml

problems = []
DEFAULT_BASE = {"telnet": 2323, "ssh": 2222}  # serve's, docs/telnet-ssh.md


def problem(text):
    problems.append(text)


def dns_label(name):
    return re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", name or "") and len(name) <= 63


def arg_after(args, flag):
    return args[args.index(flag) + 1] if flag in args[:-1] else None


def check_objects(docs):
    seen = set()
    for d in docs:
        name = (d.get("metadata") or {}).get("name")
        if not d.get("apiVersion") or not d.get("kind") or not name:
            problem("an object without apiVersion, kind or metadata.name: %r" % d)
            continue
        if not dns_label(name):
            problem("%s %s: not a DNS label" % (d["kind"], name))
        if (d["kind"], name) in seen:
            problem("%s %s: twice" % (d["kind"], name))
        seen.add((d["kind"], name))


def check_security(pod, where):
    psc = pod.get("securityContext") or {}
    if psc.get("runAsNonRoot") is not True or not psc.get("runAsUser"):
        problem(where + ": the pod must run as a non-root uid (runAsNonRoot, runAsUser)")
    if pod.get("automountServiceAccountToken") is not False:
        problem(where + ": mounts a service account token mdsim never uses")
    if pod.get("hostNetwork") or pod.get("hostPID") or pod.get("hostIPC"):
        problem(where + ": shares a host namespace")
    for c in pod.get("initContainers", []) + pod.get("containers", []):
        sc = c.get("securityContext") or {}
        caps = sc.get("capabilities") or {}
        if sc.get("allowPrivilegeEscalation") is not False:
            problem("%s %s: allowPrivilegeEscalation is not false" % (where, c["name"]))
        if sc.get("readOnlyRootFilesystem") is not True:
            problem("%s %s: the root filesystem is not read-only" % (where, c["name"]))
        if "ALL" not in caps.get("drop", []) or caps.get("add"):
            problem("%s %s: capabilities: drop ALL and add none" % (where, c["name"]))
        if sc.get("privileged") or sc.get("runAsUser") == 0:
            problem("%s %s: privileged or root" % (where, c["name"]))


def check_statefulset(sts, services, secrets):
    where = "StatefulSet " + sts["metadata"]["name"]
    spec = sts["spec"]
    pod = spec["template"]["spec"]
    labels = spec["template"]["metadata"].get("labels") or {}
    if spec.get("replicas", 1) != 1:
        problem(where + ": one lab per StatefulSet (the switch Services select all its pods)")
    match = spec["selector"].get("matchLabels") or {}
    if not match or any(labels.get(k) != v for k, v in match.items()):
        problem(where + ": its selector does not match its pod template's labels")
    gov = services.get(spec.get("serviceName"))
    if gov is None:
        problem(where + ": serviceName %r is no Service" % spec.get("serviceName"))
    elif gov["spec"].get("clusterIP") != "None":
        problem(where + ": its governing Service is not headless")
    check_security(pod, where)

    # Volumes: every mount has a volume; the lab is on a claim per pod.
    claims = {t["metadata"]["name"] for t in spec.get("volumeClaimTemplates", [])}
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for c in pod.get("initContainers", []) + pod["containers"]:
        for m in c.get("volumeMounts", []):
            if m["name"] not in volumes and m["name"] not in claims:
                problem("%s %s: mounts %s, no such volume" % (where, c["name"], m["name"]))
    for v in volumes.values():
        name = (v.get("secret") or {}).get("secretName")
        if name and secrets and name not in secrets:
            problem("%s: Secret %s is not the one rendered (%s)" % (where, name, ", ".join(secrets)))
    serve = [c for c in pod["containers"] if "serve" in c.get("args", [])]
    if len(serve) != 1:
        problem(where + ": no container runs `mdsim ... serve`")
        return {}
    c = serve[0]
    args = c["args"]
    db = arg_after(args, "--db") or ""
    lab_dir = db.rsplit("/", 1)[0]
    mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
    if mounts.get(lab_dir) not in claims:
        problem("%s: the lab %s is not on a volume claim" % (where, db))
    if arg_after(args, "--bind") in (None, "127.0.0.1", "::1", "localhost"):
        problem(where + ": serve listens on loopback only, unreachable from a Service")
    images = {x["image"] for x in pod.get("initContainers", []) + pod["containers"]}
    if len(images) != 1:
        problem(where + ": containers run different images %s" % sorted(images))

    # Ports: serve puts switch i (from 0) on BASE + i; a port is named
    # mdsN-telnet or mdsN-ssh for switch N = i + 1, both for every switch.
    ports = c.get("ports", [])
    names = [p.get("name") for p in ports]
    numbers = [p["containerPort"] for p in ports]
    if len(set(names)) != len(names) or len(set(numbers)) != len(numbers):
        problem(where + ": container port names or numbers repeat")
    got = {p.get("name"): p["containerPort"] for p in ports}
    switches = {"telnet": set(), "ssh": set()}
    for name, number in got.items():
        m = re.fullmatch(r"mds(\d+)-(telnet|ssh)", name or "")
        if not m:
            problem("%s: port name %r is not mdsN-telnet or mdsN-ssh" % (where, name))
            continue
        base = int(arg_after(args, "--%s-port" % m.group(2)) or DEFAULT_BASE[m.group(2)])
        want = base + int(m.group(1)) - 1
        if number != want:
            problem("%s: port %s is %d, serve puts it on %d" % (where, name, number, want))
        switches[m.group(2)].add(int(m.group(1)))
    n = len(switches["telnet"])
    if not n or switches["telnet"] != switches["ssh"] or switches["ssh"] != set(range(1, n + 1)):
        problem("%s: ports for switches %s (telnet) and %s (SSH), want 1..N for both"
                % (where, sorted(switches["telnet"]), sorted(switches["ssh"])))
    return {"labels": labels, "ports": got, "name": sts["metadata"]["name"]}


def check_services(services, pods):
    per_port = {}  # (lab, container port) -> the Services that expose it
    for name, svc in services.items():
        where = "Service " + name
        targets = [p for p in pods if selects(svc, p)]
        if len(targets) != 1:
            problem(where + ": its selector matches %d labs' pods, want one" % len(targets))
        pnames = [p.get("name") for p in svc["spec"].get("ports", [])]
        pnums = [(p["port"], p.get("protocol", "TCP")) for p in svc["spec"].get("ports", [])]
        if len(set(pnames)) != len(pnames) or len(set(pnums)) != len(pnums):
            problem(where + ": port names or numbers repeat")
        for p in svc["spec"].get("ports", []):
            target = p.get("targetPort", p["port"])
            for t in targets:
                if target not in t["ports"] and target not in t["ports"].values():
                    problem("%s: targetPort %r is no container port" % (where, target))
                # by its name, also when given as a number
                target = next((n for n, v in t["ports"].items() if v == target), target)
            if svc["spec"].get("clusterIP") != "None" and len(targets) == 1:
                per_port.setdefault((targets[0]["name"], target), []).append(name)
    for pod in pods:
        for port in pod["ports"]:
            n = len(per_port.get((pod["name"], port), []))
            if n != 1:
                problem("%s, switch port %s: %d Services, want one" % (pod["name"], port, n))


def selects(svc, pod):
    sel = svc["spec"].get("selector") or {}
    return bool(sel) and all(pod["labels"].get(k) == v for k, v in sel.items())


def main():
    args = sys.argv[1:]
    containerfile = None
    if args[:1] == ["--containerfile"]:
        containerfile, args = args[1], args[2:]
    labs = []  # per rendering: its object names, Services and pods
    for path in args:
        docs = [d for d in yaml.safe_load_all(open(path)) if d]
        check_objects(docs)
        services = {d["metadata"]["name"]: d for d in docs if d.get("kind") == "Service"}
        secrets = {d["metadata"]["name"] for d in docs if d.get("kind") == "Secret"}
        sets = [d for d in docs if d.get("kind") == "StatefulSet"]
        if not sets:
            problem(path + ": no StatefulSet")
        pods = [p for p in (check_statefulset(s, services, secrets) for s in sets) if p]
        check_services(services, pods)
        if containerfile:
            # The image's user is the pod's, so files it made stay readable.
            user = re.search(r"^USER\s+(\d+)", open(containerfile).read(), re.M)
            for s in sets:
                uid = s["spec"]["template"]["spec"].get("securityContext", {}).get("runAsUser")
                if not user or int(user.group(1)) != uid:
                    problem("Containerfile's USER is not the pod's runAsUser %s" % uid)
        labs.append(({(d["kind"], d["metadata"]["name"]) for d in docs}, services, pods))
    # Renderings applied side by side (several labs in one namespace):
    # no name twice, no Service reaching into another rendering's pods.
    for i, (names, services, _) in enumerate(labs):
        for j, (other_names, _, other_pods) in enumerate(labs):
            if i < j and names & other_names:
                problem("%s and %s both define %s" % (args[i], args[j], sorted(names & other_names)))
            for name, svc in services.items():
                if i != j and any(selects(svc, p) for p in other_pods):
                    problem("%s: Service %s selects the pods of %s" % (args[i], name, args[j]))
    for p in problems:
        print("FAIL: " + p)
    sys.exit(1 if problems else 0)


main()
