// Pins the autoscaling/v1 HorizontalPodAutoscaler defaults and validation texts of 1.26.
import { fieldErrorText } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { setPath } from '../core/testing/json-path';
import { applyHorizontalPodAutoscalerDefaults } from './v1/defaults';
import { METRICS_ANNOTATION } from './annotations';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatus, validateHorizontalPodAutoscalerUpdate } from './validation';

type Mutation = (h: ApiObject) => void;
const set = (path: string, value: unknown): Mutation => (h) => setPath(h, path, value);
const all = (...mutations: Mutation[]): Mutation => (h) => mutations.forEach((m) => m(h));

function anHpa(mutate: Mutation = () => {}): ApiObject {
  const h: ApiObject = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
  };
  applyHorizontalPodAutoscalerDefaults(h);
  mutate(h);
  return h;
}

const texts = (h: ApiObject, scaleToZero = false): string[] => validateHorizontalPodAutoscaler(h, { hpaScaleToZero: scaleToZero }).map(fieldErrorText);
const SCALE_TO_ZERO = 'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas';

describe('applyHorizontalPodAutoscalerDefaults', () => {
  it('defaults minReplicas to 1 and nothing else', () => {
    expect(anHpa().spec).toEqual({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, minReplicas: 1, targetCPUUtilizationPercentage: 70 });
    expect(anHpa(set('spec.minReplicas', 3)).spec).toMatchObject({ minReplicas: 3 });
  });

  it('creates spec when absent and never throws', () => {
    const h: ApiObject = { metadata: { name: 'x' } };
    applyHorizontalPodAutoscalerDefaults(h);
    expect(h.spec).toEqual({ minReplicas: 1 });
    expect(() => applyHorizontalPodAutoscalerDefaults({ metadata: {}, spec: 'x' })).not.toThrow();
  });
});

describe('validateHorizontalPodAutoscaler', () => {
  it('accepts a defaulted autoscaler', () => {
    expect(texts(anHpa())).toEqual([]);
  });

  it.each<[string, Mutation, string[]]>([
    ['minReplicas 0', set('spec.minReplicas', 0), ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', SCALE_TO_ZERO]],
    ['maxReplicas 0', set('spec.maxReplicas', 0), ['spec.maxReplicas: Invalid value: 0: must be greater than 0', 'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`']],
    ['maxReplicas missing', set('spec.maxReplicas', undefined), ['spec.maxReplicas: Invalid value: 0: must be greater than 0', 'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`']],
    ['minReplicas within maxReplicas', set('spec.minReplicas', 3), []],
    ['maxReplicas below minReplicas', all(set('spec.minReplicas', 3), set('spec.maxReplicas', 2)), ['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`']],
    ['scaleTargetRef kind missing', set('spec.scaleTargetRef.kind', ''), ['spec.scaleTargetRef.kind: Required value']],
    ['scaleTargetRef missing', set('spec.scaleTargetRef', undefined), ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value']],
    ['scaleTargetRef name with a slash', set('spec.scaleTargetRef.name', 'a/b'), ['spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'']],
    ['scaleTargetRef kind ..', set('spec.scaleTargetRef.kind', '..'), ['spec.scaleTargetRef.kind: Invalid value: "..": may not be \'..\'']],
    ['targetCPUUtilizationPercentage 0', set('spec.targetCPUUtilizationPercentage', 0), ['spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0']],
    [
      'targetCPUUtilizationPercentage 0 after two annotation metrics',
      all(
        set('spec.targetCPUUtilizationPercentage', 0),
        set('metadata.annotations', { [METRICS_ANNOTATION]: '[{"type":"Pods","pods":{}},{"type":"Pods","pods":{}}]' }),
      ),
      ['spec.metrics[2].resource.target.averageUtilization: Invalid value: 0: must be greater than 0'],
    ],
    ['minReplicas a string', set('spec.minReplicas', '1'), ['spec.minReplicas: Invalid value: "1": must be a 32-bit integer']],
    ['spec a list', set('spec', []), ['spec: Invalid value: []: must be an object']],
    ['scaleTargetRef a string', set('spec.scaleTargetRef', 'x'), ['spec.scaleTargetRef: Invalid value: "x": must be an object']],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(anHpa(mutate))).toEqual(expected);
  });

  it('allows minReplicas 0 with HPAScaleToZero and an Object or External metric', () => {
    const zero = set('spec.minReplicas', 0);
    expect(texts(anHpa(zero), true)).toEqual([SCALE_TO_ZERO]);
    const withExternal = all(zero, set('metadata.annotations', { [METRICS_ANNOTATION]: '[{"type":"External","external":{"metricName":"q"}}]' }));
    expect(texts(anHpa(withExternal), true)).toEqual([]);
    expect(texts(anHpa(set('spec.minReplicas', -1)), true)).toEqual(['spec.minReplicas: Invalid value: -1: must be greater than or equal to 0']);
  });

  it('never throws on garbage', () => {
    for (const spec of [null, 1, 'x', [], { scaleTargetRef: [], maxReplicas: {}, minReplicas: null }]) {
      expect(() => validateHorizontalPodAutoscaler({ metadata: { annotations: { [METRICS_ANNOTATION]: '{' } }, spec })).not.toThrow();
    }
  });
});

describe('validateHorizontalPodAutoscalerUpdate', () => {
  it('keeps minReplicas 0 allowed when the stored object has it', () => {
    const zero = anHpa(set('spec.minReplicas', 0));
    expect(validateHorizontalPodAutoscalerUpdate(zero, zero).map(fieldErrorText)).toEqual([SCALE_TO_ZERO]);
    expect(validateHorizontalPodAutoscalerUpdate(zero, anHpa()).map(fieldErrorText)).toEqual(['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', SCALE_TO_ZERO]);
  });
});

describe('validateHorizontalPodAutoscalerStatus', () => {
  it.each<[object, string[]]>([
    [{ currentReplicas: 1, desiredReplicas: 2 }, []],
    [{ currentReplicas: -1, desiredReplicas: -2 }, ['status.currentReplicas: Invalid value: -1: must be greater than or equal to 0', 'status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0']],
    [{ currentReplicas: 'x' }, ['status.currentReplicas: Invalid value: "x": must be a 32-bit integer']],
  ])('%j', (status, expected) => {
    expect(validateHorizontalPodAutoscalerStatus(anHpa(set('status', status)), anHpa()).map(fieldErrorText)).toEqual(expected);
  });
});
