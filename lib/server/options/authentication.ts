// Authentication flags (kube-apiserver's names): anonymous requests, the static token file, client certificates.
import type { FlagDefinition } from './flag-set';
import { FlagError } from './flag-set';

export const AUTHENTICATION_FLAGS: readonly FlagDefinition[] = [
  {
    name: 'anonymous-auth',
    kind: 'bool',
    default: 'true',
    usage: 'requests without credentials are system:anonymous in group system:unauthenticated; false answers them 401',
  },
  {
    name: 'token-auth-file',
    kind: 'string',
    default: '',
    usage: 'static bearer tokens, a CSV of token,user,uid[,"group1,group2"]',
  },
  {
    name: 'client-ca-file',
    kind: 'string',
    default: '',
    usage:
      'PEM CA bundle; a TLS client certificate signed by it authenticates as its CN, in its O groups (needs the TLS flags)',
  },
];

export interface AuthenticationOptions {
  anonymous: boolean;
  /** '' = no static tokens. */
  tokenAuthFile: string;
  /** '' = client certificates are not asked for. */
  clientCAFile: string;
}

export function parseAuthenticationFlags(values: Map<string, string>, tls: boolean): AuthenticationOptions {
  const clientCAFile = values.get('client-ca-file') ?? '';
  if (clientCAFile !== '' && !tls)
    throw new FlagError(
      '--client-ca-file needs --tls-cert-file and --tls-private-key-file: client certificates exist only over TLS',
    );
  return {
    anonymous: values.get('anonymous-auth') !== 'false',
    tokenAuthFile: values.get('token-auth-file') ?? '',
    clientCAFile,
  };
}
