// Warming a server up before a measured phase: Deployment creates at concurrency 16 (the Node load generator).
import { runLoad } from './http-load';
import { DEPLOYMENTS, deploymentBody } from './workloads';

/** Creates at concurrency 16 until `creates` succeeded or `maxSeconds` passed (checked every 2 s). */
export async function warmUp(
  url: string,
  prefix: string,
  creates: number,
  maxSeconds: number,
): Promise<{ creates: number; seconds: number }> {
  const started = Date.now();
  let done = 0;
  let n = 0;
  for (let left = maxSeconds; done < creates && left > 0; left = maxSeconds - (Date.now() - started) / 1000) {
    const r = await runLoad(url, {
      workload: 'warm-up',
      concurrency: 16,
      seconds: Math.min(2, left),
      next: () => ({ method: 'POST', path: DEPLOYMENTS, body: deploymentBody(`${prefix}${n++}`) }),
    });
    done += r.requests - r.errors;
  }
  return { creates: done, seconds: (Date.now() - started) / 1000 };
}
