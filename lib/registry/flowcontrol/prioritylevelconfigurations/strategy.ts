// PriorityLevelConfiguration registry behaviour: cluster-scoped, status cleared on create and carried on update, /status writes only status.
import { isDeepStrictEqual } from 'node:util';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { applyPriorityLevelConfigurationDefaults } from '../../../apis/flowcontrol/v1beta3/defaults';
import {
  validatePriorityLevelConfiguration,
  validatePriorityLevelConfigurationStatus,
  validatePriorityLevelConfigurationUpdate,
} from '../../../apis/flowcontrol/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { priorityLevelConfigurationTable } from './table';

// Objects reach the strategy in v1beta3 form, so error paths name `nominalConcurrencyShares`.
export const priorityLevelConfigurationStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: false,
  applyDefaults: applyPriorityLevelConfigurationDefaults,
  prepareForCreate(obj: ApiObject): void {
    obj.status = {};
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    obj.status = structuredClone(old.status);
    // Only spec changes bump the generation, so controllers can tell them from status writes.
    obj.metadata.generation = isDeepStrictEqual(obj.spec, old.spec) ? old.metadata.generation : (old.metadata.generation ?? 0) + 1;
    if (obj.metadata.generation === undefined) delete obj.metadata.generation;
  },
  validate: (obj) => validatePriorityLevelConfiguration(obj),
  validateUpdate: (obj, old) => validatePriorityLevelConfigurationUpdate(obj, old),
  table: priorityLevelConfigurationTable,
};

export const priorityLevelConfigurationStatusStrategy: Strategy = {
  ...priorityLevelConfigurationStrategy,
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    obj.spec = structuredClone(old.spec);
    // Everything in metadata but managedFields (which records this very status write) comes from
    // storage: label or annotation edits sent to /status are dropped, as in Kubernetes.
    const managedFields = obj.metadata.managedFields;
    obj.metadata = structuredClone(old.metadata);
    if (managedFields === undefined) delete obj.metadata.managedFields;
    else obj.metadata.managedFields = managedFields;
  },
  validateUpdate: validatePriorityLevelConfigurationStatus,
};
