// ServiceAccount registry behaviour (core v1): namespaced, DNS-subdomain names (ValidateServiceAccountName), the
// Secrets count column of kubectl get.
import { withKubeFinalizerNames } from '../../../apis/core/validation-object-meta';
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { formatAge } from '../../rest/age';
import { ageColumn, nameColumn, stringColumn } from '../../rest/table';

// SwaggerDoc of k8s.io/api v0.26 core/v1 ServiceAccount.secrets.
const SECRETS_DOC =
  'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret';

export const serviceAccountStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: true,
  validate: withKubeFinalizerNames(() => []),
  validateUpdate: withKubeFinalizerNames(() => []),
  table: {
    columns: [nameColumn, stringColumn('Secrets', SECRETS_DOC), ageColumn],
    cells: (obj: ApiObject, now: Date) => [
      obj.metadata.name ?? '',
      Array.isArray(obj['secrets']) ? obj['secrets'].length : 0,
      formatAge(obj.metadata.creationTimestamp, now),
    ],
  },
};
