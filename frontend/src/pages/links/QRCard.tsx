// The link's QR code: its colours, error correction and logo switch, saved with the link (its
// `qr`, which the API's image of the link draws), and PNG and SVG downloads of the code shown.
import { Anchor, Button, Card, Group, Image, Loader, NativeSelect, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconDeviceFloppy, IconDownload } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, unwrap, type Link } from "../../api/client";
import { notifyDone, notifyFailed } from "../../components/notify";
import { useCanManage } from "../../components/plan";
import { errorMessage, FormError } from "../../components/states";
import i18n from "../../i18n";
import { saveBlob } from "../../lib/download";
import { qrFileName } from "../../lib/format";
import { dropLegacyQRStyle, legacyQRStyle, qrImageQuery, qrPreviewState, qrStyleBody, sameQRStyle, toQRStyle, type QRLevel, type QRStyle } from "../../lib/qrStyle";
import { useWorkspaceId } from "../../session";

export function QRCard({ link }: { link: Link }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const [error, setError] = useState<unknown>();
  const saved = toQRStyle(link.qr);
  const [draft, setDraft] = useState<QRStyle>(saved);
  const [broken, setBroken] = useState(false);
  const change = (p: Partial<QRStyle>) => {
    setDraft((d) => ({ ...d, ...p }));
    setBroken(false);
  };
  const save = useMutation({
    mutationFn: (s: QRStyle) =>
      unwrap(api.PATCH("/api/v1/workspaces/{workspace}/links/{id}", { params: { path: { workspace: ws, id: link.id } }, body: { qr: qrStyleBody(s) } })),
    onSuccess: (l) => {
      // Only the style changed: the page's read of the link keeps what only it answers.
      client.setQueryData<Link>([ws, "link", link.id], (old) => (old ? { ...old, qr: l.qr, updated_at: l.updated_at } : l));
      setDraft(toQRStyle(l.qr));
    },
  });
  // A style this browser kept before styles were saved with links is moved to the link once,
  // unless the link has one of its own; then the browser's copy is dropped.
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current) return;
    moved.current = true;
    const legacy = legacyQRStyle(ws, link.id);
    if (!legacy) return;
    if (link.qr) {
      dropLegacyQRStyle(ws, link.id);
      return;
    }
    setDraft(legacy);
    // A refusal (a viewer, a style the server no longer takes) keeps the browser's copy.
    save.mutateAsync(legacy).then(
      () => dropLegacyQRStyle(ws, link.id),
      () => undefined,
    );
  }, [ws, link.id, link.qr, save]);
  const canManage = useCanManage();
  // Whether the workspace has a logo (204 without one), asked once the logo is switched on: a
  // code with a missing logo is refused, and the card says where the logo is uploaded instead.
  const hasLogo = useQuery({
    queryKey: [ws, "logo", "present"],
    enabled: draft.logo,
    queryFn: async () => (await api.GET("/api/v1/workspaces/{workspace}/logo", { params: { path: { workspace: ws } }, parseAs: "blob" })).response.status === 200,
  });
  // Not known (the question failed): the code is asked for, and a refusal shows as one.
  const preview = qrPreviewState(draft, hasLogo.isError ? true : hasLogo.data, broken);
  const dirty = !sameQRStyle(draft, saved);
  const style = qrImageQuery(draft);
  const src = `/api/v1/workspaces/${ws}/links/${link.id}/qr?${new URLSearchParams({ format: "svg", size: "240", ...style })}`;
  const download = async (format: "png" | "svg") => {
    setError(undefined);
    try {
      const res = await api.GET("/api/v1/workspaces/{workspace}/links/{id}/qr", {
        params: { path: { workspace: ws, id: link.id }, query: { format, size: 1024, ...style } },
        parseAs: "blob",
      });
      if (!res.response.ok || !res.data) {
        const body = (await (res.error as Blob | undefined)?.text?.().catch(() => "")) ?? "";
        let reason = "";
        try {
          reason = (JSON.parse(body) as { error?: { reason?: string } }).error?.reason ?? "";
        } catch {
          /* not JSON */
        }
        throw new Error(reason && i18n.exists(`errors.${reason}`) ? t(`errors.${reason}`) : res.response.statusText);
      }
      saveBlob(res.data as Blob, qrFileName(link.code, format));
    } catch (e) {
      setError(e);
    }
  };
  const saveDraft = () =>
    save.mutate(draft, {
      onSuccess: () => notifyDone(t("qrStyle.saved")),
      onError: (e) => notifyFailed(errorMessage(e, t("common.unexpected"))),
    });
  return (
    <Card withBorder className="qr-card">
      <Stack align="center" gap="sm">
        <Text fw={600}>{t("detail.qr")}</Text>
        {preview === "noLogo" ? (
          <Stack gap={4} w={180} data-testid="qr-no-logo">
            <Text size="sm" c="red">
              {t("qrStyle.noLogo")}
            </Text>
            {canManage ? (
              <Anchor component={RouterLink} to="/settings#qr-logo" size="sm">
                {t("qrStyle.uploadLogo")}
              </Anchor>
            ) : (
              <Text size="sm">{t("qrStyle.askForLogo")}</Text>
            )}
          </Stack>
        ) : preview === "cannotDraw" ? (
          <Text size="sm" c="red" w={180} data-testid="qr-broken">
            {t("qrStyle.cannotDraw")}
          </Text>
        ) : preview === "checking" ? (
          <Loader size="sm" m={78} />
        ) : (
          <Image src={src} alt={t("detail.qrAlt", { url: link.short_url })} w={180} h={180} data-testid="qr-image" onError={() => setBroken(true)} />
        )}
        <Group gap="xs" wrap="nowrap">
          <TextInput type="color" size="xs" w={70} label={t("qrStyle.fg")} value={draft.fg} onChange={(e) => change({ fg: e.currentTarget.value })} />
          <TextInput type="color" size="xs" w={70} label={t("qrStyle.bg")} value={draft.bg} onChange={(e) => change({ bg: e.currentTarget.value })} />
        </Group>
        {/* On a line of its own: beside the colours the card's width broke its label in two. */}
        <Group gap="xs" wrap="nowrap">
          <NativeSelect
            size="xs"
            w={150}
            label={t("qrStyle.ec")}
            value={draft.logo ? "H" : draft.ec}
            disabled={draft.logo}
            onChange={(e) => change({ ec: e.currentTarget.value as QRLevel })}
            data={[{ value: "", label: t("qrStyle.ecAuto") }, "L", "M", "Q", "H"]}
          />
        </Group>
        <Switch size="xs" label={t("qrStyle.logo")} checked={draft.logo} onChange={(e) => change({ logo: e.currentTarget.checked })} />
        {draft.logo && (
          <Text size="xs" c="dimmed" maw={240} ta="center" data-testid="qr-logo-level">
            {t("qrStyle.logoLevel")}
          </Text>
        )}
        <Button size="xs" leftSection={<IconDeviceFloppy size={14} />} disabled={!dirty || preview === "noLogo" || preview === "cannotDraw"} loading={save.isPending} onClick={saveDraft} data-testid="qr-save">
          {t("qrStyle.save")}
        </Button>
        <Text size="xs" c="dimmed" maw={240} ta="center" data-testid="qr-saved-note">
          {dirty ? t("qrStyle.unsaved") : t("qrStyle.savedNote")}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => void download("png")} data-testid="qr-png">
            PNG
          </Button>
          <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => void download("svg")} data-testid="qr-svg">
            SVG
          </Button>
        </Group>
        <FormError error={error} />
      </Stack>
    </Card>
  );
}
