// How prioritylevelconfigurations are served (pkg/registry/flowcontrol/prioritylevelconfiguration/storage): stored as
// v1beta3 but written to etcd as v1beta2 (Kubernetes 1.26's storage version), v1beta2 preferred and deprecated; /status.
import { FLOWCONTROL_GROUP } from '../../../apis/flowcontrol/register';
import { applyPriorityLevelConfigurationDefaults as applyV1beta2PriorityLevelDefaults } from '../../../apis/flowcontrol/v1beta2/defaults';
import type { ResourceRegistration } from '../../rest/registration';
import {
  priorityLevelConfigurationStatusStrategy,
  priorityLevelConfigurationStrategy,
  priorityLevelConfigurationV1beta2Overrides,
} from './strategy';

export const priorityLevelConfigurationRegistration = (): ResourceRegistration => ({
  definition: {
    group: FLOWCONTROL_GROUP,
    version: 'v1beta3',
    resource: 'prioritylevelconfigurations',
    kind: 'PriorityLevelConfiguration',
    listKind: 'PriorityLevelConfigurationList',
    shortNames: [],
    categories: [],
    strategy: priorityLevelConfigurationStrategy,
    statusStrategy: priorityLevelConfigurationStatusStrategy,
  },
  extraVersions: [
    {
      version: 'v1beta2',
      applyDefaults: applyV1beta2PriorityLevelDefaults,
      preferred: true,
      writtenToEtcd: true,
      validation: priorityLevelConfigurationV1beta2Overrides,
      deprecation: {
        deprecatedIn: '1.26',
        removedIn: '1.29',
        replacement: { group: FLOWCONTROL_GROUP, version: 'v1beta3', kind: 'PriorityLevelConfiguration' },
      },
    },
  ],
});
