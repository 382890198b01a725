// End-to-end: daily kubectl workflows with older kubectl releases (1.27, 1.28 read OpenAPI v2 as protobuf) against the built server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { Kubectl, kubectlRelease, useKubectlOnBinaryServer } from '../helpers/kubectl';

const ns = `e2e-qa-${process.pid}`;
const env = useKubectlOnBinaryServer(ns);

/** A Deployment manifest in kubectl's work dir; `extraSpec` fields are merged into its spec. */
function manifest(name: string, image: string, extraSpec: Record<string, unknown> = {}): string {
  const file = join(
    env.kubectl().workDir,
    `${name}-${image.replace(/[^a-z0-9]/g, '')}-${Object.keys(extraSpec).join('')}.yaml`,
  );
  const labels = { app: name };
  const spec = {
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: { containers: [{ name: 'main', image }] } },
    ...extraSpec,
  };
  writeFileSync(
    file,
    stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns }, spec }),
  );
  return file;
}

const releases = ['1.27', '1.28'].map((v) => [v, kubectlRelease(v)] as const);

describe.each(releases)('kubectl %s (OpenAPI v2 protobuf for validation and apply)', (version, binary) => {
  const maybe = binary ? it : it.skip;
  const name = `v${version.replace('.', '')}`;
  const old = (): Kubectl => new Kubectl(env.server().url, binary);

  maybe('create -f with default (strict) validation creates the Deployment', async () => {
    const k = old();
    const res = await k.run(['create', '-f', manifest(name, 'nginx:1.25')]);
    k.cleanup();
    expect(res).toMatchObject({ code: 0, stdout: `deployment.apps/${name} created\n` });
  });

  maybe(
    "client-side apply merges containers by name (the schema's merge key), keeping a container added by patch",
    async () => {
      const k = old();
      const first = await k.run(['apply', '-f', manifest(name, 'nginx:1.25')]);
      await k.ok(
        '-n',
        ns,
        'patch',
        'deploy',
        name,
        '-p',
        '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox"}]}}}}',
      );
      const second = await k.run(['apply', '-f', manifest(name, 'nginx:1.26')]);
      const images = await k.ok(
        '-n',
        ns,
        'get',
        'deploy',
        name,
        '-o',
        'jsonpath={range .spec.template.spec.containers[*]}{.name}={.image} {end}',
      );
      k.cleanup();
      expect(first).toMatchObject({ code: 0, stdout: `deployment.apps/${name} configured\n` });
      expect(second).toMatchObject({ code: 0, stdout: `deployment.apps/${name} configured\n` });
      expect(images.trim().split(' ').sort()).toEqual(['main=nginx:1.26', 'sidecar=busybox']);
    },
  );

  maybe("create -f refuses an unknown field with the server's strict decoding error", async () => {
    const k = old();
    const res = await k.run(['create', '-f', manifest(`${name}-bad`, 'nginx:1.25', { bogus: 1 })]);
    k.cleanup();
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('strict decoding error: unknown field "spec.bogus"');
  });
});
