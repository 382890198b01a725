// The Warning text of a deprecated version (pkg/endpoints/deprecation), in the group name the request used.
import { deprecationWarning } from './deprecation';

const FLOWCONTROL_V1BETA2 = {
  deprecatedIn: '1.26',
  removedIn: '1.29',
  replacement: { group: 'flowcontrol.apiserver.orch.io', version: 'v1beta3', kind: 'FlowSchema' },
};

describe('deprecationWarning', () => {
  it('names the replacement in the served group', () => {
    expect(deprecationWarning('flowcontrol.apiserver.orch.io', 'v1beta2', 'FlowSchema', FLOWCONTROL_V1BETA2)).toBe(
      'flowcontrol.apiserver.orch.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.orch.io/v1beta3 FlowSchema',
    );
  });

  it('names it in the Kubernetes group name when the request used that name, as 1.26 writes it', () => {
    expect(deprecationWarning('flowcontrol.apiserver.k8s.io', 'v1beta2', 'FlowSchema', FLOWCONTROL_V1BETA2)).toBe(
      'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema',
    );
  });

  it('leaves out what the deprecation does not say', () => {
    expect(deprecationWarning('apps', 'v1beta1', 'Deployment', { deprecatedIn: '1.9' })).toBe(
      'apps/v1beta1 Deployment is deprecated in v1.9+',
    );
  });
});
