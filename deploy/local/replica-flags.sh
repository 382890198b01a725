# The flags every replica of the local cluster runs with: the one place to change them (sourced by cluster.sh).
# Expects ETCD_SERVERS (comma-separated client URLs) and CLUSTER_DIR; the replica's own port comes last, from cluster.sh.
# Authentication (issue 15): add
#   --token-auth-file="$CLUSTER_DIR/tokens.csv" --authorization-mode=RBAC --client-ca-file="$CLUSTER_DIR/pki/ca.crt"
# here; cluster.sh already writes tokens.csv with the admin token (group system:masters) that cluster/kubeconfig carries.
replica_flags() {
  REPLICA_FLAGS=(
    --bind-address=127.0.0.1
    --etcd-servers="$ETCD_SERVERS"
    --tls-cert-file="$CLUSTER_DIR/pki/apiserver.crt"
    --tls-private-key-file="$CLUSTER_DIR/pki/apiserver.key"
    --shutdown-delay-duration="${SHUTDOWN_DELAY:-3s}"
    --etcd-compaction-interval="${COMPACTION_INTERVAL:-5m}"
  )
}
