// End-to-end: real kubectl watching (`get --watch`, Table events) and paging (`get --chunk-size`) against the built server.
import { useKubectlOnBinaryServer } from '../helpers/kubectl';

const ns = `e2e-watch-${process.pid}`;
const env = useKubectlOnBinaryServer(ns);

async function until(probe: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('kubectl get --watch', () => {
  it('prints the existing deployment, then each change, with the kind columns and event types', async () => {
    await env.kubectl().ok('-n', ns, 'create', 'deployment', 'watched', '--image=nginx:1.25');
    const watch = env.kubectl().stream('-n', ns, 'get', 'deployments', '--watch', '--output-watch-events');
    try {
      await until(
        () => watch.lines.some((l) => l.startsWith('ADDED') && l.includes('watched')),
        'the initial ADDED row',
      );
      expect(watch.lines[0]?.split(/\s+/)).toEqual(['EVENT', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
      await env.kubectl().ok('-n', ns, 'scale', 'deployment', 'watched', '--replicas=3');
      await until(() => watch.lines.some((l) => l.startsWith('MODIFIED') && l.includes('0/3')), 'the MODIFIED row');
      await env.kubectl().ok('-n', ns, 'delete', 'deployment', 'watched');
      await until(() => watch.lines.some((l) => l.startsWith('DELETED') && l.includes('watched')), 'the DELETED row');
      expect(watch.lines.map((l) => l.split(/\s+/)[0])).toEqual(['EVENT', 'ADDED', 'MODIFIED', 'DELETED']);
      expect(watch.stderr()).toBe('');
    } finally {
      await watch.stop();
    }
  });
});

describe('kubectl get --chunk-size', () => {
  it('pages through every deployment two at a time with continue tokens', async () => {
    const names = ['page-a', 'page-b', 'page-c', 'page-d', 'page-e'];
    for (const name of names) await env.kubectl().ok('-n', ns, 'create', 'deployment', name, '--image=nginx:1.25');
    const res = await env.kubectl().run(['-n', ns, 'get', 'deployments', '--chunk-size=2', '-o', 'name', '-v=6']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual(names.map((n) => `deployment.apps/${n}`));
    const requests = res.stderr
      .split('\n')
      .filter((l) => l.includes(`/namespaces/${ns}/deployments?`) && l.includes('200 OK'));
    expect(requests).toHaveLength(3);
    expect(requests.every((l) => l.includes('limit=2'))).toBe(true);
    expect(requests.filter((l) => l.includes('continue=')).length).toBe(2);
  });
});
