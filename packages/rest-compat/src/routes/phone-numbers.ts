import { z } from "zod";
import { MANAGERS_ONLY } from "../errors.ts";
import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import { formatA, message } from "../openapi/schemas.ts";
import { type RouteDefinition, route } from "../route.ts";

const phoneNumberSchema = z.object({
  id: z.int(),
  phone_number: z.string(),
  country_code: z.string().nullable(),
  type: z.enum(["normal", "sip", "caller_id"]),
  type_label: z.string(),
  sms_capable: z.boolean(),
  region: z.string().nullable(),
  has_active_subscription: z.boolean(),
  created_at: formatA,
});

const listRoute = (path: string, smsReadyOnly: boolean, summary: string): RouteDefinition =>
  route({
    method: "GET",
    path,
    doc: {
      tag: "Phone numbers",
      summary,
      response: {
        description: "The numbers, oldest first",
        schema: z.object({ data: z.array(phoneNumberSchema) }),
      },
      example: {},
    },
    operation: graphql(`
      query RestPhoneNumbers($smsReadyOnly: Boolean) {
        phoneNumbers(smsReadyOnly: $smsReadyOnly) {
          id phoneNumber countryCode kind typeLabel smsCapable region hasActiveSubscription createdAt
        }
      }
    `),
    variables: () => ({ smsReadyOnly }),
    respond: (data) => ({
      body: {
        data: data.phoneNumbers.map((number) => ({
          id: number.id,
          phone_number: number.phoneNumber,
          country_code: number.countryCode,
          type: number.kind,
          type_label: number.typeLabel,
          sms_capable: number.smsCapable,
          region: number.region,
          has_active_subscription: number.hasActiveSubscription,
          created_at: timestampA(number.createdAt),
        })),
      },
    }),
  });

export const phoneNumberRoutes: RouteDefinition[] = [
  listRoute("/user/phone-numbers/all", false, "List every number the account holds"),
  // The legacy list: only numbers that can send SMS and are paid for.
  listRoute("/user/phone-numbers", true, "List the SMS-capable numbers with an active subscription (legacy)"),
  route({
    method: "DELETE",
    path: "/user/phone-numbers/{id}",
    doc: {
      tag: "Phone numbers",
      summary: "Release a number (a dedicated number at the end of its paid period)",
      pathParams: { id: "The number" },
      response: {
        description: "Released, or its release scheduled",
        schema: message("Phone number released successfully."),
      },
      errors: {
        403: MANAGERS_ONLY,
        404: "Unknown number, or another account's",
        409: "Release already scheduled, or under way",
      },
      example: { params: { id: 1 } },
    },
    params: { id: "int" },
    operation: graphql(`
      mutation RestReleasePhoneNumber($id: Int!) {
        releasePhoneNumber(id: $id) { releasedNow releasesAt }
      }
    `),
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: ({ releasePhoneNumber: { releasedNow, releasesAt } }) => ({
      body: {
        message: releasedNow
          ? "Phone number released successfully."
          : `Phone number subscription cancelled. The number stays active until ${timestampA(releasesAt)}, then it is released.`,
      },
    }),
  }),
];
