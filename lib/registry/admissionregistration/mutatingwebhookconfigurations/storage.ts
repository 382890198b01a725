// How mutatingwebhookconfigurations are served (pkg/registry/admissionregistration/mutatingwebhookconfiguration/storage).
import { ADMISSIONREGISTRATION_GROUP } from '../../../apis/admissionregistration/register';
import type { ResourceRegistration } from '../../rest/registration';
import { mutatingWebhookConfigurationStrategy } from '../webhookconfigurations/strategy';

export const mutatingWebhookConfigurationRegistration = (): ResourceRegistration => ({
  definition: {
    group: ADMISSIONREGISTRATION_GROUP,
    version: 'v1',
    resource: 'mutatingwebhookconfigurations',
    kind: 'MutatingWebhookConfiguration',
    listKind: 'MutatingWebhookConfigurationList',
    shortNames: [],
    categories: ['api-extensions'],
    strategy: mutatingWebhookConfigurationStrategy,
  },
});
