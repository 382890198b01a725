// What start-up reads from files before it touches storage: a bad path starts nothing, as in kube-apiserver.
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { UserInfo } from '../../apimachinery/user';
import type { ServerOptions } from '../options/options';
import { ensureAuditLogFile } from '../filters/audit';
import { loadTokenFile } from '../authentication/token-file';
import { ServiceAccountTokens } from '../authentication/service-account-tokens';
import { readEtcdTlsFiles, type EtcdCredentials } from '../etcd-tls';
import { goPathError } from '../go-path-error';
import { checkClientCABundle, checkServingKeyPair } from './tls-files';

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
  clientCA?: Buffer;
}

export interface StartFiles {
  tlsFiles: TlsFiles | undefined;
  tokens: Map<string, UserInfo> | undefined;
  serviceAccountTokens: ServiceAccountTokens | undefined;
  etcdCredentials: EtcdCredentials | undefined;
}

/** Reads (and for the audit log, creates) every file the options name; throws kube-apiserver's message on the first bad one. */
export function readStartFiles(options: ServerOptions, log: Logger): StartFiles {
  if (options.auditLogPath !== '' && options.auditLogPath !== '-') ensureAuditLogFile(options.auditLogPath);
  const tlsFiles: TlsFiles | undefined = options.tls ? readServingFiles(options.tls) : undefined;
  if (tlsFiles && options.authentication.clientCAFile !== '') {
    const file = options.authentication.clientCAFile;
    try {
      tlsFiles.clientCA = readFileSync(file);
      checkClientCABundle(tlsFiles.clientCA, file);
    } catch (err) {
      throw new Error(`unable to load client CA file "${file}": ${goPathError(err)}`);
    }
  }
  const tokens =
    options.authentication.tokenAuthFile !== '' ? loadTokenFile(options.authentication.tokenAuthFile, log) : undefined;
  const serviceAccountTokens = options.serviceAccounts ? new ServiceAccountTokens(options.serviceAccounts) : undefined;
  const etcdCredentials = options.etcdTls ? readEtcdTlsFiles(options.etcdTls) : undefined;
  return { tlsFiles, tokens, serviceAccountTokens, etcdCredentials };
}

/** dynamiccertificates' loadCertKeyPair: read both files (Go's `open <file>: …` texts), then tls.X509KeyPair's checks. */
function readServingFiles(tls: { certFile: string; keyFile: string }): TlsFiles {
  const read = (file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(goPathError(err));
    }
  };
  const files = { cert: read(tls.certFile), key: read(tls.keyFile) };
  checkServingKeyPair(files.cert, files.key);
  return files;
}
