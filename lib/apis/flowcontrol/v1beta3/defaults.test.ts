// Pins the v1beta3 defaults: which zero values are replaced, which are kept, and that bad input is left alone.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { applyFlowSchemaDefaults, applyPriorityLevelConfigurationDefaults } from './defaults';

const flowSchema = (spec: unknown): ApiObject => ({ metadata: { name: 'fs' }, spec });
const priorityLevel = (spec: unknown): ApiObject => ({ metadata: { name: 'pl' }, spec });

describe('applyFlowSchemaDefaults', () => {
  it.each<[string, unknown, unknown]>([
    [
      'absent matchingPrecedence → 1000',
      { priorityLevelConfiguration: { name: 'pl' } },
      { priorityLevelConfiguration: { name: 'pl' }, matchingPrecedence: 1000 },
    ],
    ['explicit 0 → 1000', { matchingPrecedence: 0 }, { matchingPrecedence: 1000 }],
    ['null → 1000', { matchingPrecedence: null }, { matchingPrecedence: 1000 }],
    ['a set value is kept', { matchingPrecedence: 7 }, { matchingPrecedence: 7 }],
    ['a negative value is kept for validation', { matchingPrecedence: -5 }, { matchingPrecedence: -5 }],
    ['a wrongly typed value is kept for validation', { matchingPrecedence: '5' }, { matchingPrecedence: '5' }],
    ['no spec → a defaulted empty spec', undefined, { matchingPrecedence: 1000 }],
    ['a null spec → a defaulted empty spec', null, { matchingPrecedence: 1000 }],
    ['a spec of the wrong type is left alone', 'x', 'x'],
    [
      'distinguisherMethod is not defaulted',
      { matchingPrecedence: 5, rules: [] },
      { matchingPrecedence: 5, rules: [] },
    ],
  ])('%s', (_name, spec, expected) => {
    const obj = flowSchema(spec);
    applyFlowSchemaDefaults(obj);
    expect(obj.spec).toEqual(expected);
  });
});

describe('applyPriorityLevelConfigurationDefaults', () => {
  it.each<[string, unknown, unknown]>([
    [
      'a Queue level with every default',
      { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } },
      {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 30,
          lendablePercent: 0,
          limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } },
        },
      },
    ],
    [
      'explicit zeros are replaced, except lendablePercent whose default is 0',
      {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 0,
          lendablePercent: 0,
          limitResponse: { type: 'Queue', queuing: { handSize: 0, queues: 0, queueLengthLimit: 0 } },
        },
      },
      {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 30,
          lendablePercent: 0,
          limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } },
        },
      },
    ],
    [
      'set values are kept; borrowingLimitPercent stays absent',
      {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 5,
          lendablePercent: 20,
          limitResponse: { type: 'Queue', queuing: { handSize: 2, queues: 4, queueLengthLimit: 3 } },
        },
      },
      {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 5,
          lendablePercent: 20,
          limitResponse: { type: 'Queue', queuing: { handSize: 2, queues: 4, queueLengthLimit: 3 } },
        },
      },
    ],
    [
      'a Reject level gets no queuing section',
      { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
      {
        type: 'Limited',
        limited: { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Reject' } },
      },
    ],
    [
      'a missing limitResponse is not created',
      { type: 'Limited', limited: {} },
      { type: 'Limited', limited: { nominalConcurrencyShares: 30, lendablePercent: 0 } },
    ],
    ['an Exempt level is untouched', { type: 'Exempt' }, { type: 'Exempt' }],
    ['a Limited level without limited is left for validation', { type: 'Limited' }, { type: 'Limited' }],
    ['limited of the wrong type is left alone', { type: 'Limited', limited: 'x' }, { type: 'Limited', limited: 'x' }],
    [
      'wrongly typed numbers are kept',
      { limited: { nominalConcurrencyShares: '1', limitResponse: { queuing: { queues: '2' } } } },
      {
        limited: {
          nominalConcurrencyShares: '1',
          lendablePercent: 0,
          limitResponse: { queuing: { queues: '2', handSize: 8, queueLengthLimit: 50 } },
        },
      },
    ],
    ['no spec stays absent', undefined, undefined],
  ])('%s', (_name, spec, expected) => {
    const obj = priorityLevel(spec);
    applyPriorityLevelConfigurationDefaults(obj);
    expect(obj.spec).toEqual(expected);
  });
});
