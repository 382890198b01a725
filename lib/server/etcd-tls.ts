// The etcd client's TLS material from --etcd-cafile, --etcd-certfile and --etcd-keyfile, read once at start-up.
import { readFileSync } from 'node:fs';
import type { EtcdTlsFiles } from './options/options';
import { goPathError } from './go-path-error';
import { checkServingKeyPair } from './start/tls-files';

/** What the etcd3 client takes as `credentials` (grpc-js createSsl: CA, key, certificate chain). */
export interface EtcdCredentials {
  /** Absent: grpc's default roots. */
  rootCertificate?: Buffer;
  privateKey?: Buffer;
  certChain?: Buffer;
}

/**
 * Reads the files; an unreadable one, or a certificate and key that do not make a pair, stops start-up. Without --etcd-cafile the members'
 * certificates are checked against grpc's default roots.
 */
export function readEtcdTlsFiles(files: EtcdTlsFiles): EtcdCredentials {
  const read = (flag: string, path: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`unable to load ${flag} "${path}": ${goPathError(err)}`);
    }
  };
  const credentials: EtcdCredentials = {};
  if (files.caFile !== '') credentials.rootCertificate = read('--etcd-cafile', files.caFile);
  if (files.certFile !== '') {
    credentials.certChain = read('--etcd-certfile', files.certFile);
    credentials.privateKey = read('--etcd-keyfile', files.keyFile);
    // etcd's client (transport.TLSInfo.ClientConfig) loads the pair with Go's tls.X509KeyPair: its texts, at start.
    checkServingKeyPair(credentials.certChain, credentials.privateKey);
  }
  return credentials;
}
