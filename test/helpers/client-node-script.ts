// Runs a real client's script in a child process (@kubernetes/client-node is ESM-only, so a child `node`; the
// Python client under Debian's python3) that prints one JSON document of step results; e2e tests assert on the steps.
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface Step {
  ok: boolean;
  value?: any;
  error?: { apiException: boolean; code?: number; body?: any; message?: string };
}

/** Runs `command args…` (a client script in any language) and parses the `{ "steps": … }` document it prints. */
export function runClientScript(
  command: string,
  args: string[],
  timeoutMs = 60_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, Step>> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: join(__dirname, '..', '..'), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`client script failed: ${error.message}\nstdout: ${stdout}\nstderr: ${stderr}`));
          return;
        }
        try {
          resolve((JSON.parse(String(stdout)) as { steps: Record<string, Step> }).steps);
        } catch (err) {
          reject(new Error(`client script printed no JSON (${String(err)})\nstdout: ${stdout}\nstderr: ${stderr}`));
        }
      },
    );
  });
}

export function runClientNodeScript(script: string, args: string[], timeoutMs = 60_000): Promise<Record<string, Step>> {
  return runClientScript(process.execPath, [script, ...args], timeoutMs);
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
