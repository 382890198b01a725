// The field manager's scope for an apps/v1 Deployment, as the tests and the create benchmark use it.
import { schemaFor } from '../../schema/kinds';
import type { FieldManagerScope } from '../field-manager';
import { RESET_STATUS } from '../reset-fields';

/** The main resource (status reset), with a fixed clock when `now` is given. */
export function deploymentScope(now?: string): FieldManagerScope {
  return {
    schema: schemaFor('apps/v1', 'Deployment'),
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    subresource: '',
    ignored: RESET_STATUS,
    ...(now === undefined ? {} : { now: () => now }),
  };
}
