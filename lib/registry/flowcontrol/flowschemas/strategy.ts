// FlowSchema registry behaviour: cluster-scoped, status cleared on create and carried on update, /status writes only status.
import { withKubeFinalizerNames } from '../../../apis/core/validation-object-meta';
import { semanticEqual } from '../../../apimachinery/validation/semantic-equal';
import { applyFlowSchemaDefaults } from '../../../apis/flowcontrol/v1beta3/defaults';
import {
  validateFlowSchema,
  validateFlowSchemaStatus,
  validateFlowSchemaUpdate,
} from '../../../apis/flowcontrol/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { resetFieldsOf } from '../../../apimachinery/managed-fields/reset-fields';
import {
  carrySpecAndMetadata,
  carryStatusAndBumpGeneration,
  clearStatusAndStartGeneration,
} from '../../rest/spec-status';
import { flowSchemaTable } from './table';

export const flowSchemaStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: false,
  applyDefaults: applyFlowSchemaDefaults,
  prepareForCreate: clearStatusAndStartGeneration,
  // Only spec changes bump the generation (Semantic.DeepEqual: nil and empty lists/maps alike, prototypes ignored).
  prepareForUpdate: (obj, old) => carryStatusAndBumpGeneration(obj, old, !semanticEqual(obj.spec, old.spec)),
  validate: withKubeFinalizerNames(validateFlowSchema),
  validateUpdate: withKubeFinalizerNames(validateFlowSchemaUpdate),
  table: flowSchemaTable,
};

export const flowSchemaStatusStrategy: Strategy = {
  ...flowSchemaStrategy,
  prepareForUpdate: carrySpecAndMetadata,
  validateUpdate: validateFlowSchemaStatus,
  // Status writes drop metadata changes (carrySpecAndMetadata), so metadata is reset too.
  resetFields: resetFieldsOf(['spec'], ['metadata']),
};
