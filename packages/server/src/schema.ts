import { builder } from "./builder.ts";
import "./modules/common/common.schema.ts";
import "./modules/accounts/accounts.schema.ts";
import "./modules/auth/auth.schema.ts";
import "./modules/api-keys/api-keys.schema.ts";
import "./modules/knowledge/knowledge.schema.ts";
import "./modules/conversations/conversations.schema.ts";
import "./modules/replies/replies.schema.ts";
import "./modules/widget/widget.schema.ts";
import "./modules/voices/voices.schema.ts";
import "./modules/phone-numbers/phone-numbers.schema.ts";
import "./modules/assistants/assistants.schema.ts";
import "./modules/campaigns/campaigns.schema.ts";
import "./modules/leads/leads.schema.ts";
import "./modules/calls/calls.schema.ts";
import "./modules/dialer/dialer.schema.ts";
import "./modules/platform/platform.schema.ts";

export const schema = builder.toSchema({ sortSchema: true });
