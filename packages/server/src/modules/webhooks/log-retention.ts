import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import type { WebhooksService } from "./webhooks.service.ts";

const RETENTION_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Keeps the delivery log to `VOXGATE_WEBHOOK_LOG_RETENTION_DAYS`: finished events (delivered or
 * failed) older than that are deleted with their attempts, hourly. Pending ones stay whatever
 * their age: they are still being delivered.
 */
export class WebhookLogRetention extends PeriodicSweep {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly webhooks: WebhooksService,
    private readonly clock: Clock,
  ) {
    super("webhook log retention", RETENTION_SWEEP_INTERVAL_MS, deps.logger);
  }

  protected runOnce() {
    return this.sweep();
  }

  /** How many events it deleted; null when another instance was sweeping. */
  async sweep(): Promise<number | null> {
    const days = this.deps.config.webhooks.logRetentionDays;
    const deleted = await this.webhooks.purgeLog(new Date(this.clock.now().getTime() - days * 86_400_000));
    if (deleted) this.logger.info("webhook log entries past retention deleted", { deleted, days });
    return deleted;
  }
}
