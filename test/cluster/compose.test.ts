// docker-compose.yml cannot run here (no Docker engine): its topology, flags, mounts and health gates are checked.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, must, parseYamlDocuments, readRepoFile, unknownFlags } from './deploy-checks';

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  environment?: Record<string, string>;
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

const [compose] = parseYamlDocuments(readRepoFile('docker-compose.yml'), 'docker-compose.yml') as [Compose];
const services = compose.services;
const service = (name: string): Service => must(services[name], `service ${name}`);
const etcds = ['etcd1', 'etcd2', 'etcd3'];
const replicas = ['apiserver1', 'apiserver2', 'apiserver3'];

function flagValue(args: readonly string[], name: string): string | undefined {
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

describe('docker-compose.yml', () => {
  test('has the cluster topology: 3 etcd, 3 replicas, haproxy, prometheus (and the pki job)', () => {
    expect(Object.keys(services).sort()).toEqual([...etcds, ...replicas, 'haproxy', 'pki', 'prometheus'].sort());
  });

  test('the etcd members form one cluster, each with a health check and its own data volume', () => {
    const initial = etcds.map((e) => flagValue(service(e).command ?? [], 'initial-cluster'));
    expect(new Set(initial).size).toBe(1);
    expect(initial[0]).toBe(etcds.map((e) => `${e}=http://${e}:2380`).join(','));
    for (const e of etcds) {
      const s = service(e);
      expect(s.image).toMatch(/^quay\.io\/coreos\/etcd:v3\.\d+\.\d+$/);
      expect(flagValue(s.command ?? [], 'name')).toBe(e);
      expect(flagValue(s.command ?? [], 'advertise-client-urls')).toBe(`http://${e}:2379`);
      expect(s.healthcheck?.test).toContain('etcdctl');
      const volume = must(s.volumes?.[0], `${e} volume`).split(':')[0] ?? '';
      expect(compose.volumes).toHaveProperty(volume);
    }
  });

  test('every replica is built from deploy/docker/Dockerfile with flags the server accepts, listing every etcd member', () => {
    for (const r of replicas) {
      const s = service(r);
      const build = must(s.build, `${r} build`);
      expect(build).toEqual({ context: '.', dockerfile: 'deploy/docker/Dockerfile' });
      expect(existsSync(join(ROOT, build.context, build.dockerfile))).toBe(true);
      const args = s.command ?? [];
      expect(unknownFlags(args)).toEqual([]);
      expect(flagValue(args, 'etcd-servers')?.split(',')).toEqual(etcds.map((e) => `http://${e}:2379`));
      expect(flagValue(args, 'tls-cert-file')).toBeDefined();
      for (const e of etcds) expect(s.depends_on?.[e]?.condition).toBe('service_healthy');
      expect(s.depends_on?.pki?.condition).toBe('service_completed_successfully');
      expect(s.healthcheck?.test.join(' ')).toContain('/readyz');
    }
  });

  test('a typo in a flag would be caught', () => {
    expect(unknownFlags(['--port=1', '--etcd-server=http://x:2379', 'stray'])).toEqual(['--etcd-server=http://x:2379', 'stray']);
  });

  test('haproxy and prometheus mount deploy/local files that exist, with every address the config expects', () => {
    const bindMounts = Object.values(services).flatMap((s) => (s.volumes ?? []).filter((v) => v.startsWith('./')));
    expect(bindMounts.length).toBeGreaterThanOrEqual(4);
    for (const v of bindMounts) expect(existsSync(join(ROOT, must(v.split(':')[0], v)))).toBe(true);
    const haproxyCfg = readRepoFile('deploy/local/haproxy.cfg');
    const needed = [...haproxyCfg.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1] ?? '');
    expect(needed.length).toBeGreaterThan(0);
    for (const name of needed) expect(service('haproxy').environment).toHaveProperty(name);
    for (const r of replicas) expect(Object.values(service('haproxy').environment ?? {})).toContain(`${r}:6443`);
    expect(service('haproxy').volumes).toContain('./deploy/local/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    // prometheus.yml reads targets/*.json and ca/ca.crt relative to itself.
    const targets = service('prometheus').volumes?.find((v) => v.endsWith(':/etc/prometheus/targets:ro'));
    const targetDir = must(must(targets, 'prometheus targets mount').split(':')[0], 'targets dir');
    const dir = join(ROOT, targetDir);
    expect(statSync(dir).isDirectory()).toBe(true);
    const [apiTargets] = parseYamlDocuments(readRepoFile(join(targetDir, 'apiserver.json')), 'targets') as [{ targets: string[] }[]];
    expect(apiTargets[0]?.targets).toEqual(replicas.map((r) => `${r}:6443`));
    const [etcdTargets] = parseYamlDocuments(readRepoFile(join(targetDir, 'etcd.json')), 'targets') as [{ targets: string[] }[]];
    expect(etcdTargets[0]?.targets).toEqual(etcds.map((e) => `${e}:2379`));
    expect(service('prometheus').volumes?.some((v) => v.endsWith(':/etc/prometheus/ca:ro'))).toBe(true);
  });
});
