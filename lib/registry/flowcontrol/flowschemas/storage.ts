// How flowschemas are served (pkg/registry/flowcontrol/flowschema/storage): stored as v1beta3 but written to etcd as
// v1beta2 (Kubernetes 1.26's storage version), v1beta2 preferred and deprecated; /status.
import { FLOWCONTROL_GROUP } from '../../../apis/flowcontrol/register';
import type { ResourceRegistration } from '../../rest/registration';
import { flowSchemaStatusStrategy, flowSchemaStrategy } from './strategy';

export const flowSchemaRegistration = (): ResourceRegistration => ({
  definition: {
    group: FLOWCONTROL_GROUP,
    version: 'v1beta3',
    resource: 'flowschemas',
    kind: 'FlowSchema',
    listKind: 'FlowSchemaList',
    shortNames: [],
    categories: [],
    strategy: flowSchemaStrategy,
    statusStrategy: flowSchemaStatusStrategy,
  },
  extraVersions: [
    {
      version: 'v1beta2',
      applyDefaults: flowSchemaStrategy.applyDefaults,
      preferred: true,
      writtenToEtcd: true,
      deprecation: {
        deprecatedIn: '1.26',
        removedIn: '1.29',
        replacement: { group: FLOWCONTROL_GROUP, version: 'v1beta3', kind: 'FlowSchema' },
      },
    },
  ],
});
