import type { ServiceDeps } from "../../../deps.ts";
import type { TextStatus } from "../../texts/text-status.ts";
import type { TextDesk } from "../provider.ts";
import { twilioLibrary } from "./twilio-provider.ts";

/** Form fields of a Twilio messaging webhook request. */
type MessagingParams = Record<string, string>;

/** Twilio's message statuses, in Voxgate's words (inbound ones, receiving and received, are not reported). */
const TEXT_STATUSES: Readonly<Record<string, TextStatus>> = {
  accepted: "queued",
  scheduled: "queued",
  queued: "queued",
  sending: "queued",
  sent: "sent",
  delivered: "delivered",
  read: "delivered",
  undelivered: "undelivered",
  failed: "failed",
  canceled: "failed",
};

/**
 * Twilio's messaging webhooks, once TwilioWebhooks has routed them: an inbound text (the numbers'
 * SmsUrl) and an outbound text's status callback, each handed to the texts service.
 */
export class TwilioTextWebhooks {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly carrier: string,
    private readonly accountSid: string,
    private readonly texts: () => TextDesk,
  ) {}

  /**
   * A text to one of the numbers (their SmsUrl): recorded, its keyword obeyed, and answered with a
   * `<Message>` when it asks for a reply (HELP, STOP, START). Another Twilio account's is ignored.
   */
  async inbound(params: MessagingParams): Promise<string> {
    const response = new (twilioLibrary().twiml.MessagingResponse)();
    if (!params.MessageSid || !params.To || !params.From || params.AccountSid !== this.accountSid) {
      this.deps.logger.warn("twilio inbound text ignored", { to: params.To });
      return response.toString();
    }
    const { reply } = await this.texts().receiveText({
      carrier: this.carrier,
      providerMessageId: params.MessageSid,
      from: params.From,
      to: params.To,
      body: params.Body ?? "",
    });
    if (reply) response.message(reply);
    return response.toString();
  }

  /** An outbound text's StatusCallback: MessageStatus, with ErrorCode for undelivered and failed ones. */
  async status(textId: number | null, params: MessagingParams) {
    const status = TEXT_STATUSES[params.MessageStatus ?? ""];
    if (!status || (params.AccountSid && params.AccountSid !== this.accountSid)) {
      this.deps.logger.warn("twilio text status ignored", { status: params.MessageStatus });
      return;
    }
    await this.texts().textEvent({
      ...(textId !== null ? { textId } : {}),
      ...(params.MessageSid ? { providerMessageId: params.MessageSid } : {}),
      status,
      ...(params.ErrorCode
        ? { errorCode: params.ErrorCode, errorMessage: `Twilio error ${params.ErrorCode}.` }
        : {}),
    });
  }
}
