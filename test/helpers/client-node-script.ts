// Runs a @kubernetes/client-node script (ESM-only, so a child `node` process) that prints one JSON document of step
// results; e2e tests assert on the steps.
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface Step {
  ok: boolean;
  value?: any;
  error?: { apiException: boolean; code?: number; body?: any; message?: string };
}

export function runClientNodeScript(script: string, args: string[], timeoutMs = 60_000): Promise<Record<string, Step>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: join(__dirname, '..', '..'), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`client-node script failed: ${error.message}\nstdout: ${stdout}\nstderr: ${stderr}`));
          return;
        }
        try {
          resolve((JSON.parse(String(stdout)) as { steps: Record<string, Step> }).steps);
        } catch (err) {
          reject(
            new Error(`client-node script printed no JSON (${String(err)})\nstdout: ${stdout}\nstderr: ${stderr}`),
          );
        }
      },
    );
  });
}

/** The value of a step that succeeded, or a failure naming the step and its error. */
export function stepValue(steps: Record<string, Step>, name: string): any {
  const step = steps[name];
  if (!step) throw new Error(`step ${name} did not run`);
  if (!step.ok) throw new Error(`step ${name} failed: ${JSON.stringify(step.error)}`);
  return step.value;
}

/** The error of a step that was expected to fail. */
export function stepError(steps: Record<string, Step>, name: string): NonNullable<Step['error']> {
  const step = steps[name];
  if (!step) throw new Error(`step ${name} did not run`);
  if (step.ok || !step.error) throw new Error(`step ${name} unexpectedly succeeded: ${JSON.stringify(step.value)}`);
  return step.error;
}
