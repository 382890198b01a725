// How deployments are served (pkg/registry/apps/deployment/storage): /status and /scale.
import type { ResourceRegistration } from '../../rest/registration';
import { deploymentScale } from './scale';
import { deploymentStatusStrategy, deploymentStrategy } from './strategy';

export const deploymentRegistration = (): ResourceRegistration => ({
  definition: {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    listKind: 'DeploymentList',
    shortNames: ['deploy'],
    categories: ['all'],
    strategy: deploymentStrategy,
    statusStrategy: deploymentStatusStrategy,
  },
  scale: deploymentScale,
});
