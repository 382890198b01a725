"""Drives the server with the official Kubernetes Python client (Debian python3-kubernetes) and prints one JSON
document {"steps": {name: {"ok": bool, "value" | "error"}}} that test/e2e/python-client.test.ts asserts on.

Usage: python3 python-client-script.py <server url> <namespace>
"""
import json
import sys
import threading

from kubernetes import client, watch
from kubernetes.client.exceptions import ApiException

URL, NAMESPACE = sys.argv[1], sys.argv[2]

configuration = client.Configuration()
configuration.host = URL
api_client = client.ApiClient(configuration)
core = client.CoreV1Api(api_client)
apps = client.AppsV1Api(api_client)
autoscaling = client.AutoscalingV1Api(api_client)
rbac = client.RbacAuthorizationV1Api(api_client)
events = client.EventsV1Api(api_client)

steps = {}


def step(name, fn):
    """Runs one step; records its value or the ApiException (code and decoded Status body)."""
    try:
        steps[name] = {"ok": True, "value": fn()}
    except ApiException as err:
        try:
            body = json.loads(err.body) if err.body else None
        except ValueError:
            body = err.body
        steps[name] = {"ok": False, "error": {"apiException": True, "code": err.status, "body": body}}
    except Exception as err:  # noqa: BLE001 - any other failure is reported as the step's error
        steps[name] = {"ok": False, "error": {"apiException": False, "message": repr(err)}}


def deployment(name, replicas=1):
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "c", "image": "nginx:1.25"}]},
            },
        },
    }


step("listNamespace", lambda: sorted(n.metadata.name for n in core.list_namespace().items))
step("createNamespace", lambda: core.create_namespace({"metadata": {"name": NAMESPACE}}).status.phase)

start_rv = core.list_namespace().metadata.resource_version
watched = []


def collect_watch():
    """A watch from before the writes below, as the client's Watch helper streams it, until web's deletion."""
    w = watch.Watch()
    stream = w.stream(apps.list_namespaced_deployment, NAMESPACE, resource_version=start_rv, timeout_seconds=60)
    for event in stream:
        obj = event["object"]
        watched.append([event["type"], obj.metadata.name, obj.spec.replicas])
        if event["type"] == "DELETED" and obj.metadata.name == "web":
            w.stop()


watcher = threading.Thread(target=collect_watch)
watcher.start()


def create_web():
    d = apps.create_namespaced_deployment(NAMESPACE, deployment("web"))
    return {
        "name": d.metadata.name,
        "uid": bool(d.metadata.uid),
        "generation": d.metadata.generation,
        "strategy": d.spec.strategy.type,
        "maxSurge": d.spec.strategy.rolling_update.max_surge,
        "revisionHistoryLimit": d.spec.revision_history_limit,
        "progressDeadlineSeconds": d.spec.progress_deadline_seconds,
        "imagePullPolicy": d.spec.template.spec.containers[0].image_pull_policy,
    }


step("createDeployment", create_web)
step("createDuplicate", lambda: apps.create_namespaced_deployment(NAMESPACE, deployment("web")).metadata.name)
step("createInvalid", lambda: apps.create_namespaced_deployment(NAMESPACE, deployment("bad", -1)).metadata.name)
step("readMissing", lambda: apps.read_namespaced_deployment("missing", NAMESPACE).metadata.name)
step(
    "strategicMergePatch",
    lambda: apps.patch_namespaced_deployment("web", NAMESPACE, {"spec": {"replicas": 3}}).spec.replicas,
)
step(
    "jsonPatch",
    lambda: apps.patch_namespaced_deployment(
        "web", NAMESPACE, [{"op": "replace", "path": "/spec/replicas", "value": 4}]
    ).spec.replicas,
)


def replace_web():
    current = apps.read_namespaced_deployment("web", NAMESPACE)
    current.spec.replicas = 5
    replaced = apps.replace_namespaced_deployment("web", NAMESPACE, current)
    return {"replicas": replaced.spec.replicas, "generation": replaced.metadata.generation}


step("replaceDeployment", replace_web)


def stale_replace():
    current = apps.read_namespaced_deployment("web", NAMESPACE)
    current.metadata.resource_version = start_rv
    return apps.replace_namespaced_deployment("web", NAMESPACE, current).metadata.resource_version


step("staleReplace", stale_replace)
step(
    "scale",
    lambda: apps.patch_namespaced_deployment_scale("web", NAMESPACE, {"spec": {"replicas": 2}}).spec.replicas,
)
step("readScale", lambda: apps.read_namespaced_deployment_scale("web", NAMESPACE).spec.replicas)


def server_side_apply():
    body = json.dumps(deployment("applied", 2))
    result = api_client.call_api(
        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}",
        "PATCH",
        path_params={"namespace": NAMESPACE, "name": "applied"},
        query_params=[("fieldManager", "python-apply")],
        header_params={"Content-Type": "application/apply-patch+yaml", "Accept": "application/json"},
        body=body,
        response_type="V1Deployment",
        _return_http_data_only=True,
    )
    return {
        "replicas": result.spec.replicas,
        "managers": sorted(f.manager for f in result.metadata.managed_fields),
        "operations": sorted(f.operation for f in result.metadata.managed_fields),
    }


step("serverSideApply", server_side_apply)


def chunked_list():
    for name in ("c1", "c2", "c3"):
        apps.create_namespaced_deployment(NAMESPACE, deployment(name))
    first = apps.list_namespaced_deployment(NAMESPACE, limit=2)
    rest = apps.list_namespaced_deployment(NAMESPACE, limit=2, _continue=first.metadata._continue)
    return {
        "first": [d.metadata.name for d in first.items],
        "firstHasContinue": bool(first.metadata._continue),
        "rest": [d.metadata.name for d in rest.items],
        "restContinue": rest.metadata._continue,
    }


step("chunkedList", chunked_list)
step(
    "labelSelector",
    lambda: [d.metadata.name for d in apps.list_namespaced_deployment(NAMESPACE, label_selector="app=c2").items],
)


def hpa():
    created = autoscaling.create_namespaced_horizontal_pod_autoscaler(
        NAMESPACE,
        {
            "apiVersion": "autoscaling/v1",
            "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "web"},
            "spec": {
                "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                "maxReplicas": 5,
            },
        },
    )
    return {"minReplicas": created.spec.min_replicas, "maxReplicas": created.spec.max_replicas}


step("createHpa", hpa)


def role():
    created = rbac.create_namespaced_role(
        NAMESPACE,
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "Role",
            "metadata": {"name": "reader"},
            "rules": [{"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["get", "list"]}],
        },
    )
    return {"name": created.metadata.name, "verbs": created.rules[0].verbs}


step("createRole", role)


def event():
    created = events.create_namespaced_event(
        NAMESPACE,
        {
            "apiVersion": "events.k8s.io/v1",
            "kind": "Event",
            "metadata": {"name": "web.1"},
            "eventTime": "2026-11-27T10:00:00.000000Z",
            "reportingController": "example.com/python",
            "reportingInstance": "python-1",
            "action": "Scaled",
            "reason": "ScalingReplicaSet",
            "type": "Normal",
            "regarding": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "namespace": NAMESPACE},
            "note": "Scaled up",
        },
    )
    core_view = core.read_namespaced_event("web.1", NAMESPACE)
    return {"reason": created.reason, "coreMessage": core_view.message, "coreKind": core_view.involved_object.kind}


step("createEvent", event)
step(
    "deleteDeployment",
    lambda: apps.delete_namespaced_deployment("web", NAMESPACE).status,
)

watcher.join(timeout=60)
steps["watch"] = {"ok": not watcher.is_alive(), "value": watched}

step("deleteNamespace", lambda: core.delete_namespace(NAMESPACE).kind)

print(json.dumps({"steps": steps}))
