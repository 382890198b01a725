// The `info` object of every OpenAPI document this server serves (kube-apiserver writes title Kubernetes and its version).
export const OPENAPI_INFO = { title: 'orch-apiserver', version: 'v1.26.15' };
