import { describe, expect, it } from "vitest";
import { invitationLink } from "./invitation";

describe("invitationLink", () => {
  it("reads the ID and token of an invitation mail's link", () => {
    expect(invitationLink("/invitations/12?token=abc")).toEqual({ id: 12, token: "abc" });
  });
  it("takes an older link without a token", () => {
    expect(invitationLink("/invitations/7")).toEqual({ id: 7, token: undefined });
  });
  it("ignores every other page", () => {
    for (const p of [undefined, "", "/invitations", "/links/3", "/invitations/0", "/invitations/x?token=a"]) {
      expect(invitationLink(p)).toBeUndefined();
    }
  });
});
