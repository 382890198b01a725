// How much two CPU-bound processes get done together on this machine compared with one alone, at that moment: 2.00×
// on two idle independent cores; less when the cores are hyperthreads of one physical core or the host is busy, and
// it drifts with the host's load within seconds (measured 1.33–2.4× in one run on the shared 2-core VM). A fixed
// piece of JavaScript runs in one child process, then in two at once, a few times over, and once more alone; each
// child reports its own wall time per unit of work.
import { spawn } from 'node:child_process';
import { median } from './stats';

/** One unit: object property writes and small JSON serialisations, like a request's work without I/O. */
const CHILD = `
const units = Number(process.argv[1]);
function unit() {
  const o = {};
  let s = 0;
  for (let i = 0; i < 100000; i++) {
    o['k' + (i & 1023)] = i;
    s += JSON.stringify({ a: i, b: 'x' + i }).length;
  }
  return s;
}
for (let i = 0; i < 3; i++) unit();
const started = process.hrtime.bigint();
let sink = 0;
for (let i = 0; i < units; i++) sink += unit();
process.stdout.write(String(Number(process.hrtime.bigint() - started) / 1e6 / units) + ' ' + (sink & 1) + '\\n');
`;

function runChild(units: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD, String(units)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const msPerUnit = Number(out.split(' ')[0]);
      if (code !== 0 || !(msPerUnit > 0)) reject(new Error(`CPU probe exited with ${code}: ${out}`));
      else resolve(msPerUnit);
    });
  });
}

export interface CoreCeiling {
  /** ms per unit of one process alone (median of the runs between and around the paired ones). */
  aloneMs: number;
  /** ms per unit of each of two processes running at once (median over every paired run). */
  togetherMs: number;
  /** Work done by two at once ÷ by one alone: 2 × aloneMs ÷ togetherMs. */
  twoProcesses: number;
}

/** `rounds` of one alone then two at once, and one alone at the end: the host's speed drifts within seconds. */
export async function measureCoreCeiling(units = 25, rounds = 3): Promise<CoreCeiling> {
  const alone: number[] = [];
  const together: number[] = [];
  for (let round = 0; round < rounds; round++) {
    alone.push(await runChild(units));
    together.push(...(await Promise.all([runChild(units), runChild(units)])));
  }
  alone.push(await runChild(units));
  const aloneMs = median(alone);
  const togetherMs = median(together);
  return { aloneMs, togetherMs, twoProcesses: (2 * aloneMs) / togetherMs };
}
