// Types of prepare.mjs for the TypeScript that imports it (tests, benches); the script itself stays
// plain JavaScript because it runs before anything is installed.

export interface Step {
  name: string;
  description: string;
  /** Files and folders (relative to the root) whose content decides whether the step runs. */
  inputs(root: string): string[];
  /** Anything else the result depends on, e.g. the Node version. */
  extra?(): string;
  /** Files the step makes; a missing one makes it run again. */
  outputs: string[];
  run(root: string): void;
}

export const steps: Step[];

export function fingerprint(root: string, inputs: readonly string[], extra?: string): string;

export function isStale(root: string, step: Step): { stale: boolean; hash: string };

export function recordStamp(root: string, step: Step, hash: string): void;

export function prepare(names?: readonly string[], options?: { root?: string; steps?: Step[] }): string[];
