import { builder } from "../../builder.ts";

const CallListenRef = builder.prismaObject("CallListen", {
  description:
    "One live listen to a call (docs/transfers.md#live-listen): who listened, with which credential, from where and when.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    callId: t.exposeInt("callId"),
    userId: t.exposeInt("userId"),
    credentialKind: t.exposeString("credentialKind", { description: "apiKey or session." }),
    credentialId: t.exposeInt("credentialId", { description: "The API key's or session's id." }),
    clientAddress: t.exposeString("clientAddress"),
    startedAt: t.expose("startedAt", { type: "DateTime" }),
    endedAt: t.expose("endedAt", { type: "DateTime", nullable: true, description: "Null while listening." }),
    endReason: t.exposeString("endReason", {
      description:
        "call_ended, listener_closed, listener_spoke, revoked, no_audio or server_closing; empty while listening.",
    }),
    framesSent: t.exposeInt("framesSent", { description: "20 ms frames sent to the listener." }),
    framesDropped: t.exposeInt("framesDropped", {
      description: "20 ms frames the listener missed because it could not keep up.",
    }),
  }),
});

builder.queryField("callListens", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [CallListenRef],
    description: "The audit log of live listens to one of the account's calls, newest first (at most 200).",
    args: { callId: t.arg.int({ required: true }) },
    resolve: (_root, { callId }, context) =>
      context.services.listenAudit.forCall(context.viewer.accountId, callId),
  }),
);
