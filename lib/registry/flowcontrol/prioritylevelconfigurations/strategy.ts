// PriorityLevelConfiguration registry behaviour: cluster-scoped, status cleared on create and carried on update, /status writes only status.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { withKubeFinalizerNames } from '../../../apis/core/validation-object-meta';
import { semanticEqual } from '../../../apimachinery/validation/semantic-equal';
import { applyPriorityLevelConfigurationDefaults } from '../../../apis/flowcontrol/v1beta3/defaults';
import {
  validatePriorityLevelConfiguration,
  validatePriorityLevelConfigurationStatus,
  validatePriorityLevelConfigurationUpdate,
} from '../../../apis/flowcontrol/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { resetFieldsOf } from '../../../apimachinery/managed-fields/reset-fields';
import {
  carrySpecAndMetadata,
  carryStatusAndBumpGeneration,
  clearStatusAndStartGeneration,
} from '../../rest/spec-status';
import { priorityLevelConfigurationTable } from './table';

// Objects reach the strategy in v1beta3 form; error paths name the shares field as the request's version does.
export const priorityLevelConfigurationStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: false,
  applyDefaults: applyPriorityLevelConfigurationDefaults,
  prepareForCreate: clearStatusAndStartGeneration,
  // Only spec changes bump the generation (Semantic.DeepEqual: nil and empty lists/maps alike, prototypes ignored).
  prepareForUpdate: (obj, old) => carryStatusAndBumpGeneration(obj, old, !semanticEqual(obj.spec, old.spec)),
  validate: withKubeFinalizerNames((obj) => validatePriorityLevelConfiguration(obj)),
  validateUpdate: withKubeFinalizerNames((obj, old: ApiObject) => validatePriorityLevelConfigurationUpdate(obj, old)),
  table: priorityLevelConfigurationTable,
};

export const priorityLevelConfigurationStatusStrategy: Strategy = {
  ...priorityLevelConfigurationStrategy,
  prepareForUpdate: carrySpecAndMetadata,
  validateUpdate: validatePriorityLevelConfigurationStatus,
  // Status writes drop metadata changes (carrySpecAndMetadata), so metadata is reset too.
  resetFields: resetFieldsOf(['spec'], ['metadata']),
};

/** Writes through v1beta2: the same, with errors naming `assuredConcurrencyShares` (Kubernetes' request-version field name). */
export const priorityLevelConfigurationV1beta2Overrides: Pick<Strategy, 'validate' | 'validateUpdate'> = {
  validate: (obj) => validatePriorityLevelConfiguration(obj, 'v1beta2'),
  validateUpdate: (obj, old) => validatePriorityLevelConfigurationUpdate(obj, old, 'v1beta2'),
};
