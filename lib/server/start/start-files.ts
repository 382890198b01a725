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
  const tlsFiles: TlsFiles | undefined = options.tls
    ? { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) }
    : undefined;
  if (tlsFiles && options.authentication.clientCAFile !== '') {
    try {
      tlsFiles.clientCA = readFileSync(options.authentication.clientCAFile);
    } catch (err) {
      throw new Error(`unable to load client CA file "${options.authentication.clientCAFile}": ${goPathError(err)}`);
    }
  }
  const tokens =
    options.authentication.tokenAuthFile !== '' ? loadTokenFile(options.authentication.tokenAuthFile, log) : undefined;
  const serviceAccountTokens = options.serviceAccounts ? new ServiceAccountTokens(options.serviceAccounts) : undefined;
  const etcdCredentials = options.etcdTls ? readEtcdTlsFiles(options.etcdTls) : undefined;
  return { tlsFiles, tokens, serviceAccountTokens, etcdCredentials };
}
