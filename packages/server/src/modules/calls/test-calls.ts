import { randomBytes } from "node:crypto";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import type { TestCallCarrier } from "../telephony/provider.ts";
import type { CallLifecycle } from "./call-lifecycle.service.ts";

/**
 * The number an agent test's caller calls from: in the fictional 555-01xx block and none of the
 * simulated carrier's test numbers (a person who talks). Nobody is ever dialled at it.
 */
export const TEST_CALLER_NUMBER = "+14155550199";

/**
 * Agent tests' phone calls (docs/testing-assistants.md#phone-scenarios): an incoming call to an
 * assistant recorded `test`, carried by the simulated carrier whatever carrier serves real calls,
 * and answered by the real voice engine. Nothing is reserved or charged (CallSettlement), no
 * webhook is sent for it (WebhooksService), it does not count against the account's concurrent
 * calls, and the calls list leaves it out unless asked.
 */
export class TestCalls {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { carrier: TestCallCarrier; lifecycle: CallLifecycle },
  ) {}

  /**
   * Records the call in progress, lets the caller (`beforeConnect`: the run links the call to its
   * result, where the simulated caller finds its lines) and connects it. The call then runs on its
   * own; its end arrives as any call's.
   */
  async start(request: {
    accountId: number;
    assistantId: number;
    variables: Prisma.InputJsonObject;
    beforeConnect(callId: number): Promise<void>;
  }): Promise<Call> {
    const prisma = this.deps.db.prisma;
    const assistant = await prisma.assistant.findFirst({
      where: { id: request.assistantId, accountId: request.accountId, deletedAt: null },
      include: { phoneNumber: { select: { phoneNumber: true } } },
    });
    if (!assistant) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    const { lifecycle, carrier } = this.parts;
    const created = await lifecycle.create({
      accountId: request.accountId,
      assistantId: assistant.id,
      phoneNumberId: assistant.phoneNumberId,
      type: "inbound",
      test: true,
      variables: request.variables,
      assistantName: assistant.name,
      assistantPhoneNumber: assistant.phoneNumber?.phoneNumber ?? "",
      clientPhoneNumber: TEST_CALLER_NUMBER,
      providerName: carrier.name,
      providerCallId: `SIMTEST${randomBytes(16).toString("hex")}`,
      maxDuration: assistant.maxDuration,
    });
    lifecycle.publish(created, null);
    const call = await lifecycle.transition(created.id, "in-progress");
    try {
      await request.beforeConnect(call.id);
      await carrier.connectTestCall(call.id);
    } catch (error) {
      // Not left running without a caller: the carrier ends it (it was never connected).
      await carrier.hangUp({ callId: call.id, providerCallId: call.providerCallId, answered: true });
      throw error;
    }
    this.deps.logger.info("test call started", { accountId: request.accountId, callId: call.id });
    return call;
  }
}
