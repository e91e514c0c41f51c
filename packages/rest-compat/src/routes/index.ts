import type { RouteDefinition } from "../route.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { assistantRoutes } from "./assistants.ts";
import { authRoutes } from "./auth.ts";
import { callRoutes } from "./calls.ts";
import { leadRoutes } from "./leads.ts";
import { phoneNumberRoutes } from "./phone-numbers.ts";
import { voiceRoutes } from "./voices.ts";

/** Every documented REST path. Each domain adds its table here. */
export const routes: readonly RouteDefinition[] = [
  ...authRoutes,
  ...apiKeyRoutes,
  ...assistantRoutes,
  ...voiceRoutes,
  ...phoneNumberRoutes,
  ...callRoutes,
  ...leadRoutes,
];
