// End-to-end: events through real kubectl — `kubectl events`, `get events --watch`, and the Events section of
// `kubectl describe` for deployments (user events), namespaces (deletion progress) and FlowSchemas (Dangling).
import { useKubectlOnBinaryServer } from '../helpers/kubectl';

const ns = `e2e-events-${process.pid}`;
const env = useKubectlOnBinaryServer(ns);

async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function post(path: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(env.server().url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json()) as Record<string, any>;
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function deploymentEvent(name: string, reason: string, note: string): Promise<void> {
  const deployment = JSON.parse(await env.kubectl().ok('-n', ns, 'get', 'deployment', 'web', '-o', 'json')) as Record<
    string,
    any
  >;
  await post(`/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: new Date().toISOString().replace('Z', '000Z'),
    type: 'Normal',
    reason,
    action: 'Check',
    note,
    reportingController: 'example.com/checker',
    reportingInstance: 'checker-1',
    regarding: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'web',
      namespace: ns,
      uid: deployment['metadata']['uid'],
    },
  });
}

beforeAll(async () => {
  await env.kubectl().ok('-n', ns, 'create', 'deployment', 'web', '--image=nginx:1.25');
}, 60_000);

describe('kubectl with events', () => {
  it('a fresh server records no Dangling events for its own bootstrap FlowSchemas (priority levels come first)', async () => {
    // Once the config consumer has set every FlowSchema's Dangling condition, its events would be there too.
    await until(async () => {
      const out = await env.kubectl().ok('get', 'flowschemas', '-o', 'jsonpath={.items[*].status.conditions[*].type}');
      return out.split(' ').filter((t) => t === 'Dangling').length >= 13;
    }, 'the Dangling conditions of the bootstrap FlowSchemas');
    const out = await env
      .kubectl()
      .ok('get', 'events', '-A', '--field-selector', 'involvedObject.kind=FlowSchema', '-o', 'name');
    expect(out.trim()).toBe('');
  });

  it('kubectl describe deployment lists the events about it', async () => {
    await deploymentEvent('web.checked', 'Checked', 'the deployment was checked');
    const out = await env.kubectl().ok('-n', ns, 'describe', 'deployment', 'web');
    const events = out.slice(out.indexOf('Events:'));
    expect(events).toMatch(/Type\s+Reason\s+Age\s+From\s+Message/);
    expect(events).toMatch(/Normal\s+Checked\s+\S+\s+example\.com\/checker\s+the deployment was checked/);
  });

  it("kubectl events and kubectl get events show both APIs' events", async () => {
    const out = await env.kubectl().ok('-n', ns, 'events');
    expect(
      out
        .split('\n')[0]
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(out).toMatch(/Normal\s+Checked\s+Deployment\/web\s+the deployment was checked/);
    const get = await env.kubectl().ok('-n', ns, 'get', 'events');
    expect(
      get
        .split('\n')[0]
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(get).toMatch(/Normal\s+Checked\s+deployment\/web\s+the deployment was checked/);
    const viaEventsGroup = await env.kubectl().ok('-n', ns, 'get', 'events.v1.events.orch.io', '-o', 'name');
    expect(viaEventsGroup).toContain('event.events.orch.io/web.checked');
  });

  it('kubectl get events --watch prints new events', async () => {
    const watch = env.kubectl().stream('-n', ns, 'get', 'events', '--watch-only');
    try {
      await new Promise((r) => setTimeout(r, 1000));
      await deploymentEvent('web.watched', 'Watched', 'seen by the watch');
      await until(
        () => watch.lines.some((l) => /Normal\s+Watched\s+deployment\/web\s+seen by the watch/.test(l)),
        'the watched event',
      );
    } finally {
      await watch.stop();
    }
  });

  it('a FlowSchema referencing a missing priority level gets a Dangling warning event that describe shows', async () => {
    await post('/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas', {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: `dangling-${process.pid}` },
      spec: { priorityLevelConfiguration: { name: 'missing-level' }, matchingPrecedence: 5000, rules: [] },
    });
    let out = '';
    await until(async () => {
      out = await env.kubectl().ok('describe', 'flowschema', `dangling-${process.pid}`);
      return /Warning\s+NotFound/.test(out);
    }, 'the Dangling event');
    expect(out).toMatch(
      /Warning\s+NotFound\s+\S+\s+api-priority-and-fairness-config-consumer\s+This FlowSchema references the PriorityLevelConfiguration object named "missing-level" but there is no such object/,
    );
  });

  // kubectl's namespace describer prints no Events section (it lists none), so the events are read with kubectl get.
  it('a namespace whose content is held by a finalizer records its deletion progress as events in default', async () => {
    const doomed = `${ns}-doomed`;
    await env.kubectl().ok('create', 'namespace', doomed);
    await env.kubectl().ok('-n', doomed, 'create', 'deployment', 'held', '--image=nginx:1.25');
    await env
      .kubectl()
      .ok(
        '-n',
        doomed,
        'patch',
        'deployment',
        'held',
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":["example.com/hold"]}}',
      );
    await env.kubectl().ok('delete', 'namespace', doomed, '--wait=false');
    const selector = `--field-selector=involvedObject.kind=Namespace,involvedObject.name=${doomed}`;
    let out = '';
    await until(async () => {
      out = await env.kubectl().ok('-n', 'default', 'get', 'events', selector, '-o', 'wide');
      return /SomeFinalizersRemain/.test(out);
    }, 'the deletion progress events');
    expect(out).toMatch(
      /Normal\s+SomeResourcesRemain\s+namespace\/\S+\s+namespace-controller, namespace-controller-\S+\s+Some resources are remaining: deployments\.apps has 1 resource instances/,
    );
    await env
      .kubectl()
      .ok('-n', doomed, 'patch', 'deployment', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    await until(async () => (await env.kubectl().run(['get', 'namespace', doomed])).code !== 0, 'the namespace to go');
    const events = await env
      .kubectl()
      .ok(
        '-n',
        'default',
        'get',
        'events',
        `--field-selector=involvedObject.name=${doomed}`,
        '-o',
        'custom-columns=REASON:.reason',
        '--no-headers',
      );
    expect(events.split('\n').filter(Boolean).sort()).toEqual([
      'NamespaceFinalized',
      'SomeFinalizersRemain',
      'SomeResourcesRemain',
    ]);
  });
});
