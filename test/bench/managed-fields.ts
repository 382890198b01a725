// In-process cost of managedFields tracking (updateManagedFields) on a create and on updates, optionally against a
// baseline build of lib/apimachinery/managed-fields (`--baseline <dir or index.js>`), interleaved in one process.
import { resolve } from 'node:path';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import * as current from '../../lib/apimachinery/managed-fields';
import type { FieldManagerScope } from '../../lib/apimachinery/managed-fields';
import { schemaFor } from '../../lib/apimachinery/schema/kinds';
import { decodeBody } from '../../lib/endpoints/decode-body';
import { resourceDefinitions } from '../../lib/registry/install';
import { deploymentBody } from './workloads';

type UpdateManagedFields = typeof current.updateManagedFields;

const WARMUP_BATCHES = 5;
const BATCHES = Number(process.env['BENCH_MF_BATCHES'] ?? 20);
const REPS = Number(process.env['BENCH_MF_REPS'] ?? 200);
const CONTAINERS = 30;
const MANAGER = 'kubectl-client-side-apply';

const scope: FieldManagerScope = {
  schema: schemaFor('apps/v1', 'Deployment'),
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  subresource: '',
  ignored: current.RESET_STATUS,
};

const definition = resourceDefinitions({}).find((d) => d.group === 'apps' && d.kind === 'Deployment');

/** The object create.ts hands to the field manager: the body decoded (fieldValidation Warn) and defaulted. */
function decodedDeployment(body: string): ApiObject {
  if (!definition) throw new Error('no Deployment definition');
  const { object } = decodeBody(Buffer.from(body), 'json', definition, () => true, 'Warn');
  definition.strategy.applyDefaults(object);
  return object;
}

/** The bench Deployment with its one container repeated `count` times under distinct names and ports. */
function bodyWithContainers(name: string, count: number): string {
  const body = JSON.parse(deploymentBody(name)) as {
    spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
  };
  const [container] = body.spec.template.spec.containers;
  body.spec.template.spec.containers = Array.from({ length: count }, (_, i) => ({
    ...container,
    name: `web-${i}`,
    ports: [{ name: `http-${i}`, containerPort: 8000 + i, protocol: 'TCP' }],
  }));
  return JSON.stringify(body);
}

/** What etcd holds after the create: tracked, with system metadata and status, through a JSON round trip. */
function storedAfterCreate(body: string): ApiObject {
  const created = current.updateManagedFields(undefined, decodedDeployment(body), MANAGER, scope);
  const meta = {
    ...created.metadata,
    uid: '6f1c3c2e-2b41-4a53-9d1a-0c7f3b0d9a11',
    resourceVersion: '1234',
    generation: 1,
    creationTimestamp: '2026-11-22T18:00:00Z',
  };
  return JSON.parse(JSON.stringify({ ...created, metadata: meta, status: {} })) as ApiObject;
}

interface Case {
  name: string;
  /** A fresh (live, obj) pair per call: updateManagedFields rewrites obj.metadata.managedFields. */
  input: () => { live: ApiObject | undefined; obj: ApiObject };
}

function createCase(name: string, body: string): Case {
  const obj = decodedDeployment(body);
  return { name, input: () => ({ live: undefined, obj: { ...obj, metadata: { ...obj.metadata } } }) };
}

/** An update (PUT of what a GET returned) changing only spec.replicas. */
function replicasUpdateCase(name: string, body: string): Case {
  const live = storedAfterCreate(body);
  const next = structuredClone(live);
  (next['spec'] as Record<string, unknown>)['replicas'] = 5;
  return { name, input: () => ({ live, obj: { ...next, metadata: { ...next.metadata } } }) };
}

/** µs per call of each implementation: batches of REPS calls, implementations interleaved; the fastest batch counts. */
function fastestMicros(c: Case, impls: UpdateManagedFields[]): number[] {
  const best = impls.map(() => Number.POSITIVE_INFINITY);
  for (let batch = 0; batch < WARMUP_BATCHES + BATCHES; batch++) {
    impls.forEach((impl, k) => {
      const inputs = Array.from({ length: REPS }, c.input);
      const start = process.hrtime.bigint();
      for (const { live, obj } of inputs) impl(live, obj, MANAGER, scope);
      const us = Number(process.hrtime.bigint() - start) / 1000 / REPS;
      if (batch >= WARMUP_BATCHES) best[k] = Math.min(best[k] as number, us);
    });
  }
  return best;
}

/** Both implementations must write the same managedFields (same time source), or the comparison means nothing. */
function assertSameOutput(c: Case, impls: UpdateManagedFields[]): void {
  const fixed = { ...scope, now: () => '2026-11-22T18:00:00Z' };
  const outputs = impls.map((impl) => {
    const { live, obj } = c.input();
    return JSON.stringify(impl(live, obj, MANAGER, fixed).metadata.managedFields);
  });
  if (!outputs.every((o) => o === outputs[0]))
    throw new Error(`${c.name}: implementations disagree:\n${outputs.join('\n')}`);
}

function loadBaseline(arg: string | undefined): UpdateManagedFields | undefined {
  if (arg === undefined) return undefined;
  // A separately built copy of the module: resolved at run time, so tsc does not follow it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(resolve(arg)) as { updateManagedFields?: UpdateManagedFields };
  if (typeof mod.updateManagedFields !== 'function') throw new Error(`${arg} exports no updateManagedFields`);
  return mod.updateManagedFields;
}

function main(): void {
  const at = process.argv.indexOf('--baseline');
  const baseline = loadBaseline(at >= 0 ? process.argv[at + 1] : undefined);
  const impls = baseline ? [baseline, current.updateManagedFields] : [current.updateManagedFields];
  const cases = [
    createCase('(a) create Deployment (1 container)', deploymentBody('web')),
    replicasUpdateCase('(b) update spec.replicas (1 container)', deploymentBody('web')),
    replicasUpdateCase(`(c) update spec.replicas (${CONTAINERS} containers)`, bodyWithContainers('web', CONTAINERS)),
    createCase(`(c') create Deployment (${CONTAINERS} containers)`, bodyWithContainers('web', CONTAINERS)),
  ];
  const header = baseline
    ? '| case | baseline µs/call | current µs/call | speed-up |\n|---|---:|---:|---:|'
    : '| case | µs/call |\n|---|---:|';
  const rows = cases.map((c) => {
    if (baseline) assertSameOutput(c, impls);
    const [first = Number.NaN, second = Number.NaN] = fastestMicros(c, impls);
    return baseline
      ? `| ${c.name} | ${first.toFixed(1)} | ${second.toFixed(1)} | ${(first / second).toFixed(2)}× |`
      : `| ${c.name} | ${first.toFixed(1)} |`;
  });
  process.stdout.write(
    `${header}\n${rows.join('\n')}\n\nfastest of ${BATCHES} interleaved batches of ${REPS} calls (after ${WARMUP_BATCHES} warm-up batches), Node ${process.version}\n`,
  );
}

main();
