// A defaulted apps/v1 Deployment changed by mutations, and the validation texts, for the Deployment validation tests.
import { fieldErrorText } from '../../../apimachinery/field/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { set } from '../../core/testing/deployment-mutations';
import type { Mutation } from '../../core/testing/deployment-mutations';
import { applyDeploymentDefaults } from '../v1/defaults';
import { validateDeployment } from '../validation';
export { set, SPEC, DNS_LABEL } from '../../core/testing/deployment-mutations';
export type { Mutation } from '../../core/testing/deployment-mutations';

export function aDeployment(mutate: Mutation = () => {}, defaulted = true): ApiObject {
  const d: ApiObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
    },
  };
  if (defaulted) applyDeploymentDefaults(d);
  mutate(d);
  return d;
}

export const texts = (obj: ApiObject): string[] => validateDeployment(obj).map(fieldErrorText);
export const del = (path: string): Mutation => set(path, undefined);
export const all =
  (...mutations: Mutation[]): Mutation =>
  (d) =>
    mutations.forEach((m) => m(d));
export const CTR = 'spec.template.spec.containers.0';
