// Service account token flags (kube-apiserver's names): the signing key, the verification keys, issuer and audiences.
import type { FlagDefinition } from './flag-set';
import { FlagError } from './flag-set';

export const SERVICE_ACCOUNT_FLAGS: readonly FlagDefinition[] = [
  {
    name: 'service-account-issuer',
    kind: 'string',
    default: '',
    usage: 'comma list of issuer identifiers; the first is written into new service account tokens, all are accepted',
  },
  {
    name: 'service-account-signing-key-file',
    kind: 'string',
    default: '',
    usage:
      'PEM private key (RSA or ECDSA) that signs service account tokens (TokenRequest); needs --service-account-issuer',
  },
  {
    name: 'service-account-key-file',
    kind: 'string',
    default: '',
    usage:
      'comma list of PEM files with public (or private) keys that verify service account tokens; default: the signing key',
  },
  {
    name: 'api-audiences',
    kind: 'string',
    default: '',
    usage: 'comma list of audiences a token must be meant for; default: the issuers',
  },
];

export interface ServiceAccountOptions {
  issuers: string[];
  signingKeyFile: string;
  keyFiles: string[];
  apiAudiences: string[];
}

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function parseServiceAccountFlags(values: Map<string, string>): ServiceAccountOptions | undefined {
  const issuers = list(values.get('service-account-issuer'));
  const signingKeyFile = values.get('service-account-signing-key-file') ?? '';
  if ((issuers.length === 0) !== (signingKeyFile === ''))
    throw new FlagError('service-account-signing-key-file and service-account-issuer are required flags');
  if (issuers.length === 0) return undefined;
  const audiences = list(values.get('api-audiences'));
  return {
    issuers,
    signingKeyFile,
    keyFiles: list(values.get('service-account-key-file')),
    apiAudiences: audiences.length > 0 ? audiences : issuers,
  };
}
