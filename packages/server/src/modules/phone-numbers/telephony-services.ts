import type { ServiceDeps } from "../../services.ts";
import { AssistantsService } from "../assistants/assistants.service.ts";
import { CallsService } from "../calls/calls.service.ts";
import { CampaignsService } from "../campaigns/campaigns.service.ts";
import { LeadsService } from "../leads/leads.service.ts";
import { VoicesService } from "../voices/voices.service.ts";
import { PhoneNumberReleaseSweep, PhoneNumbersService } from "./phone-numbers.service.ts";
import { EmbeddedTelephonyProvider, type TelephonyProvider } from "./telephony-provider.ts";

/**
 * The services of assistants, voices, numbers, calls, campaigns and leads. Numbers and their
 * release sweep share one telephony provider: the embedded one unless another is given.
 */
export function createTelephonyServices(
  deps: ServiceDeps,
  telephony: TelephonyProvider = new EmbeddedTelephonyProvider(deps.db.prisma),
) {
  const campaigns = new CampaignsService(deps);
  return {
    voices: new VoicesService(deps),
    assistants: new AssistantsService(deps),
    phoneNumbers: new PhoneNumbersService(deps, telephony),
    phoneNumberReleases: new PhoneNumberReleaseSweep(deps, telephony),
    calls: new CallsService(deps),
    campaigns,
    leads: new LeadsService(deps, campaigns),
  };
}
