import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import { type RouteDefinition, route } from "../route.ts";

const listRoute = (path: string, smsReadyOnly: boolean): RouteDefinition =>
  route({
    method: "GET",
    path,
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
  listRoute("/user/phone-numbers/all", false),
  // The legacy list: only numbers that can send SMS and are paid for.
  listRoute("/user/phone-numbers", true),
  route({
    method: "DELETE",
    path: "/user/phone-numbers/{id}",
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
