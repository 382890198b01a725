// Objects, patch helpers and Kubernetes texts shared by the flowcontrol validation tests.
import type { FieldError } from '../../../apimachinery/field/errors';
import { fieldErrorText } from '../../../apimachinery/field/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';

export const SUBDOMAIN_TEXT =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const LABEL_TEXT =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const VERBS = '"create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"';
export const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

export type Patch = [path: string, value: unknown];

/** Sets (or, with `undefined`, deletes) a value at `a.b[0].c`, creating containers on the way. */
export function set(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
  let node: unknown = target;
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const container = node as Record<string, unknown>; // test fixture: containers were created below
    if (last) {
      if (value === undefined) delete container[key];
      else container[key] = value;
      return;
    }
    if (typeof container[key] !== 'object' || container[key] === null)
      container[key] = /^\d+$/.test(keys[i + 1] ?? '') ? [] : {};
    node = container[key];
  });
}

export function build(base: () => ApiObject, patches: Patch[]): ApiObject {
  const obj = base();
  for (const [path, value] of patches) set(obj, path, value);
  return obj;
}

export function aFlowSchema(): ApiObject {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'FlowSchema',
    metadata: { name: 'fs' },
    spec: {
      priorityLevelConfiguration: { name: 'pl' },
      matchingPrecedence: 500,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [{ kind: 'User', user: { name: 'alice' } }],
          resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['default'] }],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        },
      ],
    },
  };
}

export function aPriorityLevel(): ApiObject {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'pl' },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
      },
    },
  };
}

export const texts = (errs: FieldError[]): string[] => errs.map(fieldErrorText);

export const R = 'spec.rules[0]';
export const SUBJ = `${R}.subjects[0]`;
export const RR = `${R}.resourceRules[0]`;
export const NR = `${R}.nonResourceRules[0]`;
