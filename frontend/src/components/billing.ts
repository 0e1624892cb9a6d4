// The workspace's billing on Stripe: its overview, and the Checkout and portal pages, which
// the browser is sent to (the plan changes when Stripe reports the payment, not before).
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { useSession, useWorkspaceId } from "../session";
import { usePlans } from "./plan";

export type Billing = Schemas["Billing"];
export type Invoice = Schemas["Invoice"];
export type Interval = Schemas["CheckoutRequest"]["interval"];
export type PaidPlan = Schemas["CheckoutRequest"]["plan"];

/** Whether plans are bought here (billing is on): GET /plans says so. */
export function useBillingOn(): boolean {
  return usePlans().data?.checkout === true;
}

/** Whether the signed-in person owns the workspace: only owners pay and open the portal. */
export function useIsOwner(): boolean {
  return useSession().workspace.role === "owner";
}

/** The workspace's subscription and invoices (owners and admins; 409 billing_disabled when off). */
export function useBilling(enabled = true) {
  const ws = useWorkspaceId();
  return useQuery({
    queryKey: [ws, "billing"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/billing", { params: { path: { workspace: ws } } })),
    enabled,
  });
}

/** Opens Stripe's Checkout for a plan and interval: the browser leaves for the payment page. */
export function useCheckout() {
  const ws = useWorkspaceId();
  return useMutation({
    mutationFn: (body: { plan: PaidPlan; interval: Interval }) =>
      unwrap(api.POST("/api/v1/workspaces/{workspace}/billing/checkout", { params: { path: { workspace: ws } }, body })),
    onSuccess: (page) => window.location.assign(page.url),
  });
}

/** Opens Stripe's customer portal (payment method, plan change, cancellation, invoices). */
export function usePortal() {
  const ws = useWorkspaceId();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/billing/portal", { params: { path: { workspace: ws } } })),
    onSuccess: (page) => window.location.assign(page.url),
  });
}

/** Whether a subscription is live: a new Checkout is refused, changes go through the portal. */
export function isLive(b: Billing | undefined): boolean {
  return b?.status === "active" || b?.status === "past_due";
}
