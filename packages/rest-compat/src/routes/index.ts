import type { RouteDefinition } from "../route.ts";
import { aiRoutes } from "./ai.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { appointmentRoutes } from "./appointments.ts";
import { assistantRoutes } from "./assistants.ts";
import { authRoutes } from "./auth.ts";
import { callRoutes } from "./calls.ts";
import { conversationRoutes } from "./conversations.ts";
import { customerDataRoutes } from "./customer-data.ts";
import { knowledgebaseRoutes } from "./knowledgebases.ts";
import { leadRoutes } from "./leads.ts";
import { phoneNumberRoutes } from "./phone-numbers.ts";
import { voiceRoutes } from "./voices.ts";
import { widgetRoutes } from "./widget.ts";

/** Every documented REST path. Each domain adds its table here. */
export const routes: readonly RouteDefinition[] = [
  ...authRoutes,
  ...apiKeyRoutes,
  ...knowledgebaseRoutes,
  ...assistantRoutes,
  ...voiceRoutes,
  ...phoneNumberRoutes,
  ...callRoutes,
  ...leadRoutes,
  ...aiRoutes,
  ...conversationRoutes,
  ...widgetRoutes,
  ...appointmentRoutes,
  ...customerDataRoutes,
];
