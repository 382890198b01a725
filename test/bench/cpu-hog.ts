// A process that keeps one core busy with the kind of work a second worker does (JSON encode/decode of objects,
// young-generation garbage), to give one worker the same contention a second worker would, minus its requests.
import { spawn } from 'node:child_process';

const SOURCE = `
const item = { metadata: { name: 'x', labels: { app: 'a', tier: 'b' }, annotations: { note: 'y'.repeat(200) } },
  spec: { replicas: 3, template: { spec: { containers: [{ name: 'c', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] } } } };
const list = Array.from({ length: 40 }, (_, i) => ({ ...item, metadata: { ...item.metadata, name: 'x' + i } }));
for (;;) JSON.parse(JSON.stringify(list));
`;

export interface Hog {
  pid: number;
  stop(): void;
}

export function startHog(): Hog {
  const child = spawn(process.execPath, ['-e', SOURCE], { stdio: 'ignore' });
  return { pid: child.pid ?? -1, stop: () => void child.kill('SIGKILL') };
}
