import { timestampA } from "../format.ts";
import type { RouteDefinition } from "../route.ts";

interface PhoneNumberData {
  id: number;
  phoneNumber: string;
  countryCode: string;
  kind: string;
  typeLabel: string;
  smsCapable: boolean;
  region: string;
  hasActiveSubscription: boolean;
  createdAt: string;
}

const PHONE_NUMBER_FIELDS =
  "id phoneNumber countryCode kind typeLabel smsCapable region hasActiveSubscription createdAt";

function restPhoneNumber(number: PhoneNumberData) {
  return {
    id: number.id,
    phone_number: number.phoneNumber,
    country_code: number.countryCode,
    type: number.kind,
    type_label: number.typeLabel,
    sms_capable: number.smsCapable,
    region: number.region,
    has_active_subscription: number.hasActiveSubscription,
    created_at: timestampA(number.createdAt),
  };
}

const listRoute = (path: string, smsReadyOnly: boolean): RouteDefinition => ({
  method: "GET",
  path,
  operation: /* GraphQL */ `
    query RestPhoneNumbers($smsReadyOnly: Boolean) {
      phoneNumbers(smsReadyOnly: $smsReadyOnly) { ${PHONE_NUMBER_FIELDS} }
    }`,
  variables: () => ({ smsReadyOnly }),
  respond: (data) => ({ body: { data: (data.phoneNumbers as PhoneNumberData[]).map(restPhoneNumber) } }),
});

export const phoneNumberRoutes: RouteDefinition[] = [
  listRoute("/user/phone-numbers/all", false),
  // The legacy list: only numbers that can send SMS and are paid for.
  listRoute("/user/phone-numbers", true),
  {
    method: "DELETE",
    path: "/user/phone-numbers/{id}",
    params: { id: "int" },
    operation: /* GraphQL */ `
      mutation RestReleasePhoneNumber($id: Int!) {
        releasePhoneNumber(id: $id) { releasedNow releasesAt }
      }`,
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: (data) => {
      const { releasedNow, releasesAt } = data.releasePhoneNumber as {
        releasedNow: boolean;
        releasesAt: string;
      };
      return {
        body: {
          message: releasedNow
            ? "Phone number released successfully."
            : `Phone number subscription cancelled. The number stays active until ${timestampA(releasesAt)}, then it is released.`,
        },
      };
    },
  },
];
