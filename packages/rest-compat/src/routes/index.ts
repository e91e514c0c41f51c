import type { RouteDefinition } from "../route.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { authRoutes } from "./auth.ts";

/** Every documented REST path. Each domain adds its table here. */
export const routes: readonly RouteDefinition[] = [...authRoutes, ...apiKeyRoutes];
