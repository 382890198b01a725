// End-to-end: real `kubectl patch` (strategic by default, --type=merge, --type=json) against the built server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useKubectlOnBinaryServer } from '../helpers/kubectl';

const ns = `e2e-patch-${process.pid}`;
const env = useKubectlOnBinaryServer(ns);

/** Creates a Deployment whose pod has the containers `c` (nginx:1) and `helper` (busybox). */
async function createDeployment(name: string): Promise<void> {
  const manifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: 'c', image: 'nginx:1' },
            { name: 'helper', image: 'busybox:1', command: ['sleep', '3600'] },
          ],
        },
      },
    },
  };
  const file = join(env.kubectl().workDir, `${name}.json`);
  writeFileSync(file, JSON.stringify(manifest));
  await env.kubectl().ok('create', '-f', file);
}

async function getDeployment(name: string): Promise<any> {
  return JSON.parse(await env.kubectl().ok('-n', ns, 'get', 'deployment', name, '-o', 'json'));
}

const images = (dep: any): Record<string, string> =>
  Object.fromEntries(dep.spec.template.spec.containers.map((c: { name: string; image: string }) => [c.name, c.image]));

const CONTAINER_C_PATCH = (image: string): string =>
  JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'c', image }] } } } });

describe('kubectl patch', () => {
  it('merges containers by name with the default strategic merge patch, keeping the other container', async () => {
    await createDeployment('strategic');
    const out = await env
      .kubectl()
      .ok('-n', ns, 'patch', 'deployment', 'strategic', '-p', CONTAINER_C_PATCH('nginx:2'));
    expect(out.trim()).toBe('deployment.apps/strategic patched');
    expect(images(await getDeployment('strategic'))).toEqual({ c: 'nginx:2', helper: 'busybox:1' });
  });

  it('replaces the whole container list with --type=merge', async () => {
    await createDeployment('merge');
    await env
      .kubectl()
      .ok('-n', ns, 'patch', 'deployment', 'merge', '--type=merge', '-p', CONTAINER_C_PATCH('nginx:3'));
    expect(images(await getDeployment('merge'))).toEqual({ c: 'nginx:3' });
  });

  it('applies RFC 6902 operations with --type=json', async () => {
    await createDeployment('json');
    const ops = [
      { op: 'test', path: '/spec/template/spec/containers/1/name', value: 'helper' },
      { op: 'remove', path: '/spec/template/spec/containers/1' },
      { op: 'replace', path: '/spec/replicas', value: 3 },
    ];
    await env.kubectl().ok('-n', ns, 'patch', 'deployment', 'json', '--type=json', '-p', JSON.stringify(ops));
    const dep = await getDeployment('json');
    expect(dep.spec.replicas).toBe(3);
    expect(images(dep)).toEqual({ c: 'nginx:1' });
  });

  it('switches the strategy to Recreate with a $retainKeys directive', async () => {
    await createDeployment('retain');
    await env
      .kubectl()
      .ok(
        '-n',
        ns,
        'patch',
        'deployment',
        'retain',
        '-p',
        JSON.stringify({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }),
      );
    expect((await getDeployment('retain')).spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('reports a failed JSON patch test as the invalid request Kubernetes answers', async () => {
    await createDeployment('failing');
    const res = await env
      .kubectl()
      .run([
        '-n',
        ns,
        'patch',
        'deployment',
        'failing',
        '--type=json',
        '-p',
        '[{"op":"test","path":"/spec/replicas","value":99}]',
      ]);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      'The request is invalid: the server rejected our request due to an error in our request',
    );
  });

  it('reports a strategic patch element without its merge key with the server text', async () => {
    await createDeployment('nokey');
    const res = await env
      .kubectl()
      .run([
        '-n',
        ns,
        'patch',
        'deployment',
        'nokey',
        '-p',
        '{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}',
      ]);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      'Error from server (BadRequest): map: map[image:x] does not contain declared merge key: name',
    );
    expect(images(await getDeployment('nokey'))).toEqual({ c: 'nginx:1', helper: 'busybox:1' });
  });
});
