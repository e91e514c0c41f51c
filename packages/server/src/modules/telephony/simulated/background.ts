import type { Logger } from "../../../logger.ts";

/** What the carrier does outside jobs (calls' ends, lease renewals, texts' delivery): a stop waits for it. */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Runs a line's (or a text's) work outside any job, kept until it settled; failures are logged. */
  run(subject: { callId: number } | { textId: number }, what: string, work: () => Promise<void>) {
    const done = work()
      .catch((error: unknown) => this.logger.error(what, { ...subject, error }))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}
