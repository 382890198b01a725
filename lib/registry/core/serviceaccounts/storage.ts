// How serviceaccounts are served (pkg/registry/core/serviceaccount/storage); the `token` subresource is installed by the server.
import type { ResourceRegistration } from '../../rest/registration';
import { serviceAccountStrategy } from './strategy';

export const serviceAccountRegistration = (): ResourceRegistration => ({
  definition: {
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    listKind: 'ServiceAccountList',
    shortNames: ['sa'],
    categories: [],
    strategy: serviceAccountStrategy,
  },
});
