# The flags every replica of the local cluster runs with: the one place to change them (sourced by cluster.sh).
# Expects ETCD_SERVERS (comma-separated client URLs) and CLUSTER_DIR; the replica's own port comes last, from cluster.sh.
# Every replica authenticates with the static tokens cluster.sh writes (the admin token of cluster/kubeconfig in
# system:masters, Prometheus' token in system:monitoring) and client certificates of the cluster CA, and authorizes
# with RBAC; anonymous requests reach only what system:public-info-viewer allows (health checks, /version).
replica_flags() {
  REPLICA_FLAGS=(
    --bind-address=127.0.0.1
    --etcd-servers="$ETCD_SERVERS"
    --tls-cert-file="$CLUSTER_DIR/pki/apiserver.crt"
    --tls-private-key-file="$CLUSTER_DIR/pki/apiserver.key"
    --client-ca-file="$CLUSTER_DIR/pki/ca.crt"
    --token-auth-file="$CLUSTER_DIR/tokens.csv"
    --authorization-mode=RBAC
    --shutdown-delay-duration="${SHUTDOWN_DELAY:-3s}"
    --etcd-compaction-interval="${COMPACTION_INTERVAL:-5m}"
  )
}
