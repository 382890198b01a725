#!/bin/sh
# Self-signed CA and the replicas' serving certificate in $1 (kept when present). POSIX sh: also runs in the
# compose `pki` service. SANs cover loopback (local cluster) and the compose/Kubernetes service names.
set -eu
pki="$1"
[ -f "$pki/apiserver.crt" ] && exit 0
mkdir -p "$pki"
openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=orch-local-ca" -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=orch-apiserver" -keyout "$pki/apiserver.key" -out "$pki/apiserver.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:orch-apiserver,DNS:haproxy,DNS:apiserver1,DNS:apiserver2,DNS:apiserver3\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n' > "$pki/apiserver.ext"
openssl x509 -req -in "$pki/apiserver.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 365 \
  -extfile "$pki/apiserver.ext" -out "$pki/apiserver.crt" 2>/dev/null
chmod 600 "$pki/ca.key"
# The replicas run as a non-root user: the serving key must be readable by them.
chmod 644 "$pki/apiserver.key"
