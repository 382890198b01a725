// Validating/MutatingWebhookConfiguration (admissionregistration.orch.io/v1): cluster-scoped, generation 1 on
// create and bumped when the webhooks change (pkg/registry/admissionregistration/*webhookconfiguration/strategy.go).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { semanticEqual } from '../../../apimachinery/validation/semantic-equal';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import type { TableConvertor } from '../../rest/table';
import { ageColumn, nameColumn } from '../../rest/table';
import { formatAge } from '../../rest/age';
import {
  applyMutatingWebhookConfigurationDefaults,
  applyValidatingWebhookConfigurationDefaults,
} from '../../../apis/admissionregistration/v1/defaults';
import {
  validateMutatingWebhookConfiguration,
  validateMutatingWebhookConfigurationUpdate,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
} from '../../../apis/admissionregistration/validation';

const webhookTable: TableConvertor = {
  columns: [
    nameColumn,
    {
      name: 'Webhooks',
      type: 'integer',
      format: '',
      description: 'Webhooks indicates the number of webhooks in the configuration',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (obj: ApiObject, now: Date) => [
    obj.metadata.name ?? '',
    Array.isArray(obj['webhooks']) ? obj['webhooks'].length : 0,
    formatAge(obj.metadata.creationTimestamp, now),
  ],
};

function strategyOf(
  applyDefaults: Strategy['applyDefaults'],
  validate: Strategy['validate'],
  validateUpdate: Strategy['validateUpdate'],
): Strategy {
  return {
    ...defaultStrategy,
    namespaced: false,
    applyDefaults,
    prepareForCreate(obj) {
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      obj.metadata.generation = old.metadata.generation ?? 1;
      if (!semanticEqual(obj['webhooks'], old['webhooks'])) obj.metadata.generation += 1;
    },
    validate,
    validateUpdate,
    table: webhookTable,
  };
}

export const validatingWebhookConfigurationStrategy = strategyOf(
  applyValidatingWebhookConfigurationDefaults,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
);
export const mutatingWebhookConfigurationStrategy = strategyOf(
  applyMutatingWebhookConfigurationDefaults,
  validateMutatingWebhookConfiguration,
  validateMutatingWebhookConfigurationUpdate,
);
