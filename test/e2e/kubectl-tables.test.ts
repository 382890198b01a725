// End-to-end: `kubectl get` of each kind prints Kubernetes 1.26's columns (served as Tables), `-o wide` the extra ones.
import { useKubectlOnBinaryServer } from '../helpers/kubectl';

const ns = `e2e-tables-${process.pid}`;
const env = useKubectlOnBinaryServer(ns);

/** The header row of `kubectl get`, split into column names. */
async function header(...args: string[]): Promise<string[]> {
  const out = await env.kubectl().ok('get', ...args);
  return (out.split('\n')[0] ?? '').trim().split(/\s+/);
}

beforeAll(async () => {
  const k = env.kubectl();
  await k.ok('-n', ns, 'create', 'deployment', 'web', '--image=nginx:1.25');
  await k.ok('-n', ns, 'autoscale', 'deployment', 'web', '--min=1', '--max=3', '--cpu-percent=70');
}, 60_000);

describe('kubectl get prints the kind columns', () => {
  it.each([
    [['namespaces'], ['NAME', 'STATUS', 'AGE']],
    [
      ['-n', ns, 'deployments'],
      ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
    ],
    [
      ['-n', ns, 'deployments', '-o', 'wide'],
      ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR'],
    ],
    [
      ['-n', ns, 'horizontalpodautoscalers'],
      ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'],
    ],
    [['flowschemas'], ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']],
    [
      ['prioritylevelconfigurations'],
      ['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE'],
    ],
  ])('kubectl get %j', async (args, columns) => {
    expect(await header(...args)).toEqual(columns);
  });

  it('fills the deployment row (wide) and the HPA reference', async () => {
    const row = (await env.kubectl().ok('-n', ns, 'get', 'deployments', 'web', '-o', 'wide', '--no-headers'))
      .trim()
      .split(/\s+/);
    expect(row[0]).toBe('web');
    expect(row[1]).toBe('0/1');
    expect(row.slice(5)).toEqual(['nginx', 'nginx:1.25', 'app=web']);
    const hpa = (await env.kubectl().ok('-n', ns, 'get', 'hpa', 'web', '--no-headers')).trim().split(/\s+/);
    expect(hpa.slice(0, 2)).toEqual(['web', 'Deployment/web']);
    expect(hpa.slice(3, 5)).toEqual(['1', '3']);
  });
});
