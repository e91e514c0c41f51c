/** Import rules checked by `pnpm run check` (see docs/architecture.md). */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle means two modules cannot be understood (or built) one without the other.",
      from: {},
      to: { circular: true },
    },
    // The media seams (docs/architecture.md#the-media-core): telephony, voice and web calls meet in
    // modules/media and not in each other. Tests are left out: some drive the simulated carrier and
    // the engine together on purpose.
    {
      name: "media-is-a-leaf",
      severity: "error",
      comment:
        "modules/media (the stream contract, capacity, codec) imports no other module: the transports and the engine depend on it, never the other way.",
      from: { path: "^packages/server/src/modules/media/" },
      to: { path: "^packages/server/src/modules/", pathNot: "^packages/server/src/modules/media/" },
    },
    {
      name: "voice-and-telephony-apart",
      severity: "error",
      comment:
        "The voice engine and the carriers share only modules/media; neither imports the other, nor web calls.",
      from: { path: "^packages/server/src/modules/(voice|telephony)/", pathNot: "\\.test\\.ts$" },
      to: {
        path: "^packages/server/src/modules/(voice|telephony|web-calls)/",
        pathNot: "^packages/server/src/modules/$1/",
      },
    },
    {
      name: "web-calls-not-voice",
      severity: "error",
      comment: "Web calls hand their stream to the engine through modules/media's MediaStreamHandler.",
      from: { path: "^packages/server/src/modules/web-calls/", pathNot: "\\.test\\.ts$" },
      to: { path: "^packages/server/src/modules/voice/" },
    },
    {
      name: "web-calls-telephony-types-only",
      severity: "error",
      comment:
        "A web call is a carrier of its own: of telephony it takes only the carrier contract it implements (CallCarrier, CallEventSink), as types, through telephony's index.",
      from: { path: "^packages/server/src/modules/web-calls/", pathNot: "\\.test\\.ts$" },
      to: { path: "^packages/server/src/modules/telephony/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "web-calls-telephony-index-only",
      severity: "error",
      comment: "See web-calls-telephony-types-only.",
      from: { path: "^packages/server/src/modules/web-calls/", pathNot: "\\.test\\.ts$" },
      to: {
        path: "^packages/server/src/modules/telephony/",
        pathNot: "^packages/server/src/modules/telephony/index\\.ts$",
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs"] },
  },
};
