// Pins the Namespace defaults and create/update/status/finalize validation texts.
import { fieldErrorText } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { applyNamespaceDefaults } from './v1/defaults';
import {
  validateNamespace,
  validateNamespaceFinalizeUpdate,
  validateNamespaceStatusUpdate,
  validateNamespaceUpdate,
} from './validation-namespace';
import { LABEL_METADATA_NAME, NAMESPACE_FINALIZER } from './well-known-names';

const NOT_STANDARD = 'name is neither a standard finalizer name nor is it fully qualified';

function aNamespace(extra: Partial<ApiObject> = {}): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'dev' },
    spec: { finalizers: [NAMESPACE_FINALIZER] },
    status: { phase: 'Active' },
    ...extra,
  };
}

describe('applyNamespaceDefaults', () => {
  it('sets the name label and the Active phase, not the spec finalizer', () => {
    const ns: ApiObject = { metadata: { name: 'dev', labels: { team: 'a', [LABEL_METADATA_NAME]: 'other' } } };
    applyNamespaceDefaults(ns);
    expect(ns).toEqual({
      metadata: { name: 'dev', labels: { team: 'a', [LABEL_METADATA_NAME]: 'dev' } },
      status: { phase: 'Active' },
    });
  });

  it('leaves the label alone until the name is known, keeps a set phase, and never throws', () => {
    const ns: ApiObject = { metadata: { generateName: 'dev-' }, status: { phase: 'Terminating' } };
    applyNamespaceDefaults(ns);
    expect(ns).toEqual({ metadata: { generateName: 'dev-' }, status: { phase: 'Terminating' } });
    expect(() => applyNamespaceDefaults({ metadata: { name: 'x' }, status: 'x' })).not.toThrow();
  });
});

describe('validateNamespace', () => {
  it.each<[string, Partial<ApiObject>, string[]]>([
    ['a valid namespace', {}, []],
    ['no spec', { spec: undefined }, []],
    [
      'non-standard spec finalizer',
      { spec: { finalizers: ['foo'] } },
      [`spec.finalizers: Invalid value: "foo": ${NOT_STANDARD}`],
    ],
    ['upstream and qualified finalizers', { spec: { finalizers: ['kubernetes', 'example.com/x'] } }, []],
    [
      'finalizer with a bad qualified name',
      { spec: { finalizers: ['a/b/c'] } },
      [
        "spec.finalizers: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
    [
      'non-standard metadata finalizer',
      { metadata: { name: 'dev', finalizers: ['bar'] } },
      [`metadata.finalizers[0]: Invalid value: "bar": ${NOT_STANDARD}`],
    ],
    [
      'a foreign name label',
      { metadata: { name: 'dev', labels: { [LABEL_METADATA_NAME]: 'prod' } } },
      [
        `metadata.labels[${LABEL_METADATA_NAME}]: Invalid value: map[string]string{"${LABEL_METADATA_NAME}":"prod"}: must be 'dev'`,
      ],
    ],
    [
      'finalizers not a list',
      { spec: { finalizers: 'orch' } },
      ['spec.finalizers: Invalid value: "orch": must be a list'],
    ],
    ['spec a string', { spec: 'x' }, ['spec: Invalid value: "x": must be an object']],
  ])('%s', (_name, extra, expected) => {
    expect(validateNamespace(aNamespace(extra)).map(fieldErrorText)).toEqual(expected);
  });
});

describe('validateNamespaceUpdate', () => {
  it('checks only metadata rules', () => {
    const old = aNamespace();
    expect(validateNamespaceUpdate(aNamespace({ spec: { finalizers: ['foo'] } }), old)).toEqual([]);
    expect(
      validateNamespaceUpdate(aNamespace({ metadata: { name: 'dev', finalizers: ['bar'] } }), old).map(fieldErrorText),
    ).toEqual([`metadata.finalizers[0]: Invalid value: "bar": ${NOT_STANDARD}`]);
  });
});

describe('validateNamespaceStatusUpdate', () => {
  const terminating = { name: 'dev', deletionTimestamp: '2024-01-02T03:04:05Z' };
  it.each<[string, Partial<ApiObject>, string[]]>([
    ['Active without deletionTimestamp', {}, []],
    [
      'Terminating without deletionTimestamp',
      { status: { phase: 'Terminating' } },
      ['status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty'],
    ],
    ['Terminating with deletionTimestamp', { metadata: terminating, status: { phase: 'Terminating' } }, []],
    [
      'Active with deletionTimestamp',
      { metadata: terminating },
      ['status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty'],
    ],
    [
      'no phase',
      { status: {} },
      ['status.Phase: Invalid value: "": may only be \'Active\' if `deletionTimestamp` is empty'],
    ],
  ])('%s', (_name, extra, expected) => {
    expect(validateNamespaceStatusUpdate(aNamespace(extra), aNamespace()).map(fieldErrorText)).toEqual(expected);
  });
});

describe('validateNamespaceFinalizeUpdate', () => {
  it('reports each finalizer at its index', () => {
    expect(
      validateNamespaceFinalizeUpdate(aNamespace({ spec: { finalizers: ['orch', 'foo'] } }), aNamespace()).map(
        fieldErrorText,
      ),
    ).toEqual([`spec.finalizers[1]: Invalid value: "foo": ${NOT_STANDARD}`]);
    expect(validateNamespaceFinalizeUpdate(aNamespace({ spec: { finalizers: [] } }), aNamespace())).toEqual([]);
  });
});
