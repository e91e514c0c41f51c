import { builder } from "./builder.ts";
import "./modules/common/common.schema.ts";
import "./modules/accounts/accounts.schema.ts";
import "./modules/auth/auth.schema.ts";
import "./modules/api-keys/api-keys.schema.ts";

export const schema = builder.toSchema({ sortSchema: true });
