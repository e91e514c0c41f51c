import type { ServiceDeps } from "../../deps.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import type { CampaignsService } from "../campaigns/campaigns.service.ts";
import type { DialerService } from "./dialer.service.ts";

/**
 * The dialer's schedule is the database: every interval (and at once on start, so a restart picks
 * up where the last run stopped) it repairs leads a crash left behind, requests dials for campaigns
 * whose leads came due (retry times, a window that opened, new leads) and completes campaigns that
 * have no lead left to try. Every instance runs it; the work it requests is claimed under locks.
 */
export class DialerSweep extends PeriodicSweep {
  constructor(
    deps: ServiceDeps,
    private readonly dialer: DialerService,
    private readonly campaigns: CampaignsService,
  ) {
    super("dialer sweep", deps.config.dialer.sweepIntervalMs, deps.logger);
  }

  protected async runOnce() {
    await this.dialer.reconcile();
    await this.dialer.requestDueDials();
    await this.campaigns.completeIfDone();
  }
}
