import type { Prisma } from "../../generated/prisma/client.ts";
import type { AppointmentsService } from "../appointments/index.ts";
import type { CallHandoffsService, CallHandover, CallTransfersService } from "../handoffs/index.ts";
import type { FunctionSet } from "../message-pipeline/index.ts";
import type { TextsService } from "../texts/index.ts";
import type { LiveCall } from "./live-call.ts";

/**
 * What an agent test changes on its call (the agent tests module, docs/testing-assistants.md):
 * functions stubbed with its scenario's results (or the real ones, recorded), the run's overrides.
 */
export interface TestCallSetup {
  /** The functions offered on the test call `callId`, given those a real call would offer. */
  functionsFor(callId: number, real: FunctionSet[]): Promise<FunctionSet[]>;
  /** The assistant's settings as the test's run would have them (a replay against a changed prompt). */
  settingsFor<T extends TestOverridable>(callId: number, assistant: T): Promise<T>;
}

/** The settings a test run may replace. */
export interface TestOverridable {
  systemPrompt: string;
  llmModelId: number | null;
  llmTemperature: Prisma.Decimal;
  knowledgebaseId: number | null;
}

/** The modules whose functions a live call's replies may call. */
export interface LiveCallFunctionParts {
  /** `send_sms` on phone calls from an SMS-capable number: texts the caller. */
  texts: Pick<TextsService, "textingFor">;
  /** The calendar functions of assistants with appointment types. */
  appointments: Pick<AppointmentsService, "functionsFor">;
  /** `handoff` between the account's assistants on live calls; without it none is offered. */
  handoffs?: Pick<CallHandoffsService, "functionsFor">;
  /** `transfer_call` of assistants with transfer destinations open now, and the caller's return. */
  transfers?: Pick<CallTransfersService, "functionsFor">;
  /** Agent tests' calls: their functions are the test's. */
  testCalls?: () => TestCallSetup;
}

/** The built-in function sets of a live call's replies, for whichever assistant answers it. */
export class LiveCallFunctions {
  constructor(private readonly parts: LiveCallFunctionParts) {}

  /**
   * The built-in functions of `assistantId`'s replies on the call: texting the caller, its calendar,
   * `handoff` to its targets (`handedOver` hears of each one recorded) and `transfer_call` to its
   * destinations open now.
   */
  async forAssistant(
    call: LiveCall,
    assistantId: number,
    handedOver: (handover: CallHandover) => void,
  ): Promise<FunctionSet[]> {
    const { handoffs } = this.parts;
    const sets = await Promise.all([
      call.type === "web"
        ? null
        : this.parts.texts.textingFor(call.accountId, {
            from: call.assistantPhoneNumber,
            to: call.clientPhoneNumber,
          }),
      this.parts.appointments.functionsFor({
        accountId: call.accountId,
        assistantId,
        callId: call.id,
        callerPhone: call.type === "web" ? null : call.clientPhoneNumber || null,
        // A call is one turn for bookings: the same slot booked twice in it is one booking.
        turnKey: `call:${call.id}`,
      }),
      handoffs
        ? handoffs.functionsFor({ callId: call.id, accountId: call.accountId, assistantId }, handedOver)
        : null,
      this.parts.transfers?.functionsFor({
        id: call.id,
        accountId: call.accountId,
        assistantId,
        type: call.type,
      }) ?? null,
    ]);
    const real = sets.filter((set) => set !== null);
    return call.test && this.parts.testCalls ? this.parts.testCalls().functionsFor(call.id, real) : real;
  }
}
