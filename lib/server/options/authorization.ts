// --authorization-mode (kube-apiserver's name and checks): a comma list of AlwaysAllow, AlwaysDeny, RBAC.
import type { FlagDefinition } from './flag-set';
import { FlagError } from './flag-set';

export type AuthorizationMode = 'AlwaysAllow' | 'AlwaysDeny' | 'RBAC';

const KNOWN_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];
const SUPPORTED_MODES: readonly string[] = ['AlwaysAllow', 'AlwaysDeny', 'RBAC'];

export const AUTHORIZATION_FLAGS: readonly FlagDefinition[] = [
  {
    name: 'authorization-mode',
    kind: 'string',
    default: 'AlwaysAllow',
    usage:
      'ordered comma list of AlwaysAllow, AlwaysDeny, RBAC; the first that allows or denies decides. Anything reachable by others must use RBAC',
  },
];

export function parseAuthorizationModes(text: string): AuthorizationMode[] {
  const modes = text
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  const errors: string[] = [];
  if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const mode of modes) {
    if (!KNOWN_MODES.includes(mode)) errors.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    else if (!SUPPORTED_MODES.includes(mode))
      errors.push(`authorization-mode ${JSON.stringify(mode)} is not supported by this server`);
  }
  if (new Set(modes).size !== modes.length)
    errors.push(`authorization-mode [${modes.join(' ')}] has mode specified more than once`);
  if (errors.length > 0) throw new FlagError(errors.join(', '));
  return modes as AuthorizationMode[];
}
