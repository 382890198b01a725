// Pins the HorizontalPodAutoscaler behavior (scaleUp/scaleDown rules and policies) validation texts of 1.26.
import { applyHorizontalPodAutoscalerV2Defaults } from './v2/defaults';
import { all, anHpa, set, texts } from './testing/hpa';
import type { Mutation } from './testing/hpa';

describe('validateHorizontalPodAutoscaler: behavior', () => {
  const UP = 'spec.behavior.scaleUp';
  const withBehavior = (mutate: Mutation): Mutation =>
    all(set('spec.behavior', {}), applyHorizontalPodAutoscalerV2Defaults, mutate);
  it.each<[string, Mutation, string[]]>([
    [
      'stabilizationWindowSeconds -1',
      set(`${UP}.stabilizationWindowSeconds`, -1),
      [`${UP}.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero`],
    ],
    [
      'stabilizationWindowSeconds 3601',
      set('spec.behavior.scaleDown.stabilizationWindowSeconds', 3601),
      ['spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600'],
    ],
    [
      'selectPolicy unknown',
      set(`${UP}.selectPolicy`, 'X'),
      [`${UP}.selectPolicy: Unsupported value: "X": supported values: "Disabled", "Max", "Min"`],
    ],
    ['policies empty', set(`${UP}.policies`, []), [`${UP}.policies: Required value: must specify at least one Policy`]],
    [
      'policy type unknown',
      set(`${UP}.policies.0.type`, 'X'),
      [`${UP}.policies[0].type: Unsupported value: "X": supported values: "Percent", "Pods"`],
    ],
    [
      'policy value 0',
      set(`${UP}.policies.1.value`, 0),
      [`${UP}.policies[1].value: Invalid value: 0: must be greater than zero`],
    ],
    [
      'periodSeconds 0',
      set(`${UP}.policies.0.periodSeconds`, 0),
      [`${UP}.policies[0].periodSeconds: Invalid value: 0: must be greater than zero`],
    ],
    [
      'periodSeconds 1801',
      set(`${UP}.policies.0.periodSeconds`, 1801),
      [`${UP}.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800`],
    ],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(anHpa(withBehavior(mutate)))).toEqual(expected);
  });
});
