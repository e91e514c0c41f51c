import { expect, it } from "vitest";
import { sipHostOf, sipUser } from "./sip-uri.ts";

it("reads the number dialled and the PBX host of SIP URIs", () => {
  expect(sipUser("sip:+14155550123@voxgate.sip.twilio.com;transport=udp")).toBe("+14155550123");
  expect(sipUser("sip:%2B14155550123@voxgate.sip.twilio.com")).toBe("+14155550123");
  expect(sipUser("sip:voxgate.sip.twilio.com")).toBeNull();
  expect(sipUser("sip:%E0%A4%A@x")).toBeNull();
  expect(sipHostOf("sip:desk@PBX.example.com:5060;transport=tls")).toBe("pbx.example.com");
  expect(sipHostOf("sips:desk@10.0.0.7")).toBe("10.0.0.7");
  expect(sipHostOf("<sip:desk@pbx.example.com>")).toBeNull();
  expect(sipHostOf("+14155550123")).toBeNull();
});
