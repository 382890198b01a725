// A Deployment built from mutations, defaulted and validated as the server does, for the pod template tests.
import { fieldErrorText } from '../../../apimachinery/field/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { applyDeploymentDefaults } from '../../apps/v1/defaults';
import { validateDeployment } from '../../apps/validation';
import { setPath } from './json-path';
export type Mutation = (d: ApiObject) => void;

export function aDeployment(mutate: Mutation): ApiObject {
  const d: ApiObject = {
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
    },
  };
  mutate(d);
  applyDeploymentDefaults(d); // as the server does: defaults, then validation
  return d;
}

export const texts = (mutate: Mutation): string[] => validateDeployment(aDeployment(mutate)).map(fieldErrorText);
export const set =
  (path: string, value: unknown): Mutation =>
  (d) =>
    setPath(d, path, value);
export const annotate =
  (annotations: Record<string, string>): Mutation =>
  (d) =>
    setPath(d, 'spec.template.metadata.annotations', annotations);

export const SPEC = 'spec.template.spec';
export const SC = `${SPEC}.containers.0.securityContext`;
export const SC_PATH = 'spec.template.spec.containers[0].securityContext';
export const NAME_EMPTY = 'name part must be non-empty';
export const NAME_FORMAT =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
export const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const ID_RANGE = 'must be between 0 and 2147483647, inclusive';
export const ptr = (type: string, set: boolean): string => `(*${type})(${set ? '0xc000000000' : 'nil'})`;
