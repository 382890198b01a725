// How validatingwebhookconfigurations are served (pkg/registry/admissionregistration/validatingwebhookconfiguration/storage).
import { ADMISSIONREGISTRATION_GROUP } from '../../../apis/admissionregistration/register';
import type { ResourceRegistration } from '../../rest/registration';
import { validatingWebhookConfigurationStrategy } from '../webhookconfigurations/strategy';

export const validatingWebhookConfigurationRegistration = (): ResourceRegistration => ({
  definition: {
    group: ADMISSIONREGISTRATION_GROUP,
    version: 'v1',
    resource: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    listKind: 'ValidatingWebhookConfigurationList',
    shortNames: [],
    categories: ['api-extensions'],
    strategy: validatingWebhookConfigurationStrategy,
  },
});
