import { register } from "tsx/esm/api";

register();
await import("./pdf-worker.ts");
