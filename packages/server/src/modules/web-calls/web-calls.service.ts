import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, AtCapacityError } from "../../errors.ts";
import { WEB_CALL_LIMITS } from "../../limits.ts";
import type { CallStarts } from "../calls/index.ts";
import type { MediaCapacity } from "../media/index.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import { type WidgetCaller, type WidgetService, widgetVoiceEnabled } from "../widget/index.ts";
import { unreachableSpeech } from "./speech-reachability.ts";
import { WEB_CALL_PATH } from "./web-call-sockets.ts";
import { newWebCallToken } from "./web-call-token.ts";

const TOO_MANY_CALLS = "Too many calls started. Please wait a moment.";
const VOICE_DISABLED = "This assistant does not take calls from the website.";
const speechUnreachableMessage = (service: string) =>
  `The call cannot start: ${service} (the speech service) cannot be reached. Nothing was charged.`;

/** What the browser needs to connect a web call it started. */
export interface WebCallStart {
  callId: number;
  /** Single use; expires at `expiresAt`. */
  token: string;
  expiresAt: Date;
  /** The WebSocket path to open with `?token=`. */
  socketPath: string;
  sampleRate: number;
}

/**
 * Web calls from the public widget: started like a widget conversation (the assistant by its
 * UUID, the origin allow-list, the per-client limit; the first minute reserved from the owner's
 * balance) when the assistant enables voice in its widget and this instance has room for another
 * live call; the browser then connects its audio with the returned single-use token.
 */
export class WebCallsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      widget: WidgetService;
      calls: Pick<CallStarts, "startWebCall">;
      rateLimits: RateLimitsService;
      capacity: MediaCapacity;
      /** Dates the token and the connect deadline (a test's clock sets the deadline's job due). */
      clock: Clock;
    },
  ) {}

  async start(
    input: { assistantUuid: string },
    caller: WidgetCaller,
    report: RateLimitReporter,
  ): Promise<WebCallStart> {
    await this.parts.rateLimits.consume("widgetStart", caller.clientAddress, report, TOO_MANY_CALLS);
    const assistant = await this.parts.widget.publicAssistant(input.assistantUuid, caller.origin);
    if (!widgetVoiceEnabled(assistant.widgetSettings)) throw new AppError("FORBIDDEN", VOICE_DISABLED);
    if (this.parts.capacity.full()) {
      this.deps.logger.warn("web call refused: instance at capacity", { assistantId: assistant.id });
      throw new AtCapacityError(WEB_CALL_LIMITS.retryAfterSeconds);
    }
    const unreachable = await unreachableSpeech(this.deps.config.voice, assistant.mode);
    if (unreachable) {
      this.deps.logger.warn("web call refused: speech service unreachable", {
        assistantId: assistant.id,
        service: unreachable,
      });
      throw new AppError("UPSTREAM_FAILED", speechUnreachableMessage(unreachable));
    }
    const token = newWebCallToken(this.parts.clock.now().getTime());
    let issued = "";
    const call = await this.parts.calls.startWebCall({
      accountId: assistant.accountId,
      assistant,
      digestFor: (callId) => {
        const { token: value, digest } = token.forCall(callId);
        issued = value;
        return digest;
      },
      connectBy: new Date(token.expiresAt.getTime() + WEB_CALL_LIMITS.connectGraceSeconds * 1000),
    });
    return {
      callId: call.id,
      token: issued,
      expiresAt: token.expiresAt,
      socketPath: WEB_CALL_PATH,
      sampleRate: WEB_CALL_LIMITS.sampleRate,
    };
  }
}
