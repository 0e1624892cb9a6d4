// A verified domain's app-link files (iOS universal links, Android app links): two JSON text
// areas, checked here for JSON and shape before the server checks them again.
import { Button, Group, Stack, Text, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { fieldError, FormError } from "../../components/states";

type Parsed = { value?: unknown; problem?: string };

/** The text of a file as JSON: empty is "not set" (null). */
function parse(text: string, shape: "object" | "array"): Parsed {
  if (!text.trim()) return { value: null };
  try {
    const v: unknown = JSON.parse(text);
    if (shape === "array" ? !Array.isArray(v) : typeof v !== "object" || v === null || Array.isArray(v)) return { problem: shape };
    return { value: v };
  } catch {
    return { problem: "json" };
  }
}

const show = (v: unknown) => (v == null ? "" : JSON.stringify(v, null, 2));

export function AppLinks({ ws, id }: { ws: number; id: number }) {
  const { t } = useTranslation();
  const path = { workspace: ws, id };
  const [aasa, setAasa] = useState<string>();
  const [assetlinks, setAssetlinks] = useState<string>();
  const current = useQuery({
    queryKey: [ws, "app-links", id],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/domains/{id}/app-links", { params: { path } })),
  });
  const save = useMutation({
    mutationFn: (body: { apple_app_site_association: unknown; assetlinks: unknown }) =>
      unwrap(api.PUT("/api/v1/workspaces/{workspace}/domains/{id}/app-links", { params: { path }, body: body as never })),
    onSuccess: () => {
      notifyDone(t("toasts.saved"));
      void current.refetch();
    },
  });
  const aasaText = aasa ?? show(current.data?.apple_app_site_association);
  const assetText = assetlinks ?? show(current.data?.assetlinks);
  const a = parse(aasaText, "object");
  const b = parse(assetText, "array");
  const msg = (p: Parsed) => (p.problem ? t(`appLinks.problem.${p.problem}`) : undefined);
  return (
    <Stack gap="xs" data-testid="app-links">
      <Text size="sm" fw={500}>
        {t("appLinks.title")}
      </Text>
      <Text size="xs" c="dimmed">
        {t("appLinks.help")}
      </Text>
      <Textarea
        label="apple-app-site-association"
        autosize
        minRows={3}
        maxRows={12}
        className="mono"
        value={aasaText}
        onChange={(e) => setAasa(e.currentTarget.value)}
        error={msg(a) ?? fieldError(save.error, "apple_app_site_association")}
      />
      <Textarea
        label="assetlinks.json"
        autosize
        minRows={3}
        maxRows={12}
        className="mono"
        value={assetText}
        onChange={(e) => setAssetlinks(e.currentTarget.value)}
        error={msg(b) ?? fieldError(save.error, "assetlinks")}
      />
      <Group>
        <Button
          size="xs"
          variant="light"
          disabled={!!a.problem || !!b.problem}
          loading={save.isPending}
          onClick={() => save.mutate({ apple_app_site_association: a.value, assetlinks: b.value })}
        >
          {t("common.save")}
        </Button>
      </Group>
      <FormError error={save.error} fields={["apple_app_site_association", "assetlinks"]} />
    </Stack>
  );
}
